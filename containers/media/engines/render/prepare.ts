/**
 * @module containers/media/engines/render/prepare
 * Render stage 1: probe the source (and the new speech), refuse what the limits refuse, plan the
 * output, and from then on bound the render's wall clock by the real output duration.
 */
import { open } from 'node:fs/promises';
import { cutShortNote, type ProbeResult } from '../../../../src/contract/media.js';
import { mediaConfig } from '../../core/config.js';
import { probeFile } from '../../core/ffmpeg.js';
import { mediaLimitsFrom, mediaProblem } from '../../core/media-limits.js';
import { currentScope, workSeconds } from '../../core/work-scope.js';
import { planRender, type RenderPlan } from '../frame-pipeline/plan.js';
import { readProvenance } from '../tts/wav.js';
import { chooseSpeechAudio } from './speech-audio.js';
import { badInput } from './errors.js';
import { mediaFailure } from './media-failure.js';
import type { RenderInput } from './types.js';
import type { RenderLog } from './render-log.js';

/**
 * Wall-clock budget of a render: the work budget of the Worker's requests (base + factor × the
 * output's seconds, `WORK_BUDGET_*` in the contract), adjustable here by `RENDER_BUDGET_BASE_SEC`
 * and `RENDER_BUDGET_FACTOR`.
 */
export const renderBudgetMs = (durationSec: number) =>
  (mediaConfig().render.budgetBaseSec + mediaConfig().render.budgetFactor * durationSec) * 1000;

/** New speech for the render: its file, its real duration and the voice that spoke it (if synthesized). */
export interface SpeechInput {
  path: string;
  durationSec: number;
  provenance: Awaited<ReturnType<typeof readSpeechProvenance>>;
}

export interface Prepared {
  source: ProbeResult;
  speech: SpeechInput | null;
  plan: RenderPlan;
}

export async function prepare(input: RenderInput, log: RenderLog): Promise<Prepared> {
  const { signal } = input;
  const limits = input.limits ?? mediaLimitsFrom(new Headers());
  // Both probes at once (two short ffprobe runs); the source's failure is the one reported.
  const speechProbe = input.speechPath ? probeSpeech(input.speechPath, input, log) : null;
  speechProbe?.catch(() => {}); // awaited below, once the source passed
  const source = await log.time('probe', async () => {
    const p = await (input.sourceProbe ?? probeFile(input.sourcePath, signal)).catch((err) => {
      throw mediaFailure('media_unreadable', 'the video', err);
    });
    const problem = mediaProblem(p, limits, true);
    if (problem) throw badInput(problem.code, problem.message);
    return p;
  });
  const cutShort = cutShortNote(source, 'the output');
  if (cutShort) log.note(cutShort);
  const speech = speechProbe ? await speechProbe : null;
  // Synthesized speech names its voice (and any fallback note) inside the WAV: see tts/wav.ts.
  if (speech?.provenance) for (const n of speech.provenance.notes) log.note(n);
  const plan = planRender(source, speech?.durationSec ?? null);
  // Bounded work: from here on the render's wall clock follows the real output duration, and its
  // priority its cost (large or fast pictures make short media long work).
  const scope = currentScope();
  if (scope) scope.mediaSec = workSeconds(plan.durationSec, plan);
  const budget = renderBudgetMs(plan.durationSec);
  scope?.narrow(
    budget,
    `the render took longer than its budget of ${Math.round(budget / 1000)} s for ${plan.durationSec.toFixed(1)} s of video`,
  );
  if (plan.fit === 'loop')
    log.note(
      `speech (${speech!.durationSec.toFixed(2)} s) is longer than the source (${source.duration_sec.toFixed(2)} s): the source video loops`,
    );
  if (plan.fit === 'trim')
    log.note(
      `speech (${speech!.durationSec.toFixed(2)} s) is shorter than the source: the video is cut at the speech's end`,
    );
  return { source, speech, plan };
}

async function probeSpeech(path: string, input: RenderInput, log: RenderLog): Promise<SpeechInput> {
  const sp = await log.time('probe_speech', () =>
    probeFile(path, input.signal).catch((err) => {
      throw mediaFailure('speech_unreadable', 'the speech audio', err);
    }),
  );
  if (!sp.audio) throw badInput('speech_unreadable', 'the speech audio has no audio stream');
  const problem = mediaProblem(sp, input.limits ?? mediaLimitsFrom(new Headers()));
  if (problem) throw badInput('speech_unreadable', `the speech audio: ${problem.message}`);
  const audio = await log.time('speech_audio', () =>
    chooseSpeechAudio(path, sp.audio!, input.workDir, input.signal),
  );
  if (audio.note) log.note(audio.note);
  return { path: audio.path, durationSec: sp.duration_sec, provenance: await readSpeechProvenance(path) };
}

/** The head of the speech file is enough: the INFO chunk precedes the samples. */
async function readSpeechProvenance(path: string) {
  await using file = await open(path, 'r');
  const head = Buffer.alloc(64 * 1024);
  const { bytesRead } = await file.read(head, 0, head.length, 0);
  return readProvenance(head.subarray(0, bytesRead));
}
