/**
 * @module containers/media/engines/render/render
 * One render: probe → plan → (offset analysis) → one decode → per-frame edits in Node → one
 * encode. Three shapes of the same pipeline, chosen by the options:
 * - nothing to edit per frame: the encoder reads the source itself (normalize / speech swap);
 * - blur only: a decoder at mask size feeds the segmenter, masks are piped into the encoder,
 *   which composites the sharp source over a blurred copy (the measured fast recipe);
 * - gaze or mouth edits: RGBA frames go decoder → Node editors (+ mask in alpha) → encoder.
 */
import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WORK_BUDGET_BASE_SEC, WORK_BUDGET_PER_MEDIA_SEC, type ProbeResult } from '../../../../src/contract/media.js';
import { stat } from 'node:fs/promises';
import { probeFile, spawnFfmpeg } from '../../src/ffmpeg.js';
import { isTransientMediaFailure, mediaLimitsFrom, mediaProblem, plainMediaError, type MediaLimits } from '../../src/media-limits.js';
import { currentScope } from '../../src/work-scope.js';
import { KeyMaskStream, MaskTracker, downsampleRgba, upsampleMaskIntoAlpha, type KeyMaskOptions, type Segmenter } from '../segment/index.js';
import { evenWordTimes, toWebVtt, type CaptionWord } from './captions.js';
import type { GazeEngine } from '../gaze/engine.js';
import type { FrameEditor } from '../frame-pipeline/editors.js';
import { badInput, engineFailure, RenderError } from './errors.js';
import { decoderArgs, encoderArgs, type AudioInput, type EncodeSpec, type MaskInput, type VideoInput } from '../frame-pipeline/ffmpeg-args.js';
import { readFrames, readRecords, writeWithBackpressure, yuv420pMask, type RawFrame } from '../frame-pipeline/frames.js';
import type { RenderOptions } from './options.js';
import type { RenderErrorCode, RenderReport } from '../../../../src/contract/render.js';
import { planRender, type RenderPlan } from '../frame-pipeline/plan.js';
import { readProvenance } from '../tts/wav.js';

/** Engines a render may use; each is created lazily, only when its option is on. */
export interface RenderEngines {
  segmenter?: () => Promise<Segmenter>;
  /** Eye-contact correction: a per-frame editor (embedded) or a whole-video service (remote). */
  gaze?: () => GazeEngine;
  /** Measures how late the source audio is versus the mouth (seconds; positive = audio late). */
  estimateAvOffset?: (sourcePath: string, probe: ProbeResult) => Promise<{ lagSec: number; confidence: number; details?: Record<string, unknown> }>;
  /**
   * Mouth editor driven by new speech (embedded classical method): analyses `sourcePath` as the
   * render will show it (`plan`), then edits the output frames in order.
   */
  mouth?: (sourcePath: string, plan: RenderPlan, speechPath: string, signal?: AbortSignal) => Promise<FrameEditor>;
  /** Remote lip-sync: returns a path to a video whose mouth follows the speech, or null if not configured. */
  remoteLipSync?: (videoPath: string, speechPath: string, workDir: string) => Promise<string | null>;
  /** Word timings of `text` spoken in `audioPath`, or null when no aligner is available. */
  align?: (audioPath: string, text: string) => Promise<CaptionWord[] | null>;
}

export interface RenderInput {
  sourcePath: string;
  speechPath?: string;
  options: RenderOptions;
  /** Directory for intermediates and the output; the caller deletes it. */
  workDir: string;
  signal?: AbortSignal;
  /** Media limits of this request (the Worker's `MAX_MEDIA_DURATION_SEC`). */
  limits?: MediaLimits;
}

/**
 * Wall-clock budget of a render: the work budget of the Worker's requests (base + factor × the
 * output's seconds, `WORK_BUDGET_*` in the contract), adjustable here by `RENDER_BUDGET_BASE_SEC`
 * and `RENDER_BUDGET_FACTOR`.
 */
export const renderBudgetMs = (durationSec: number) =>
  ((Number(process.env.RENDER_BUDGET_BASE_SEC) || WORK_BUDGET_BASE_SEC) + (Number(process.env.RENDER_BUDGET_FACTOR) || WORK_BUDGET_PER_MEDIA_SEC) * durationSec) * 1000;

/**
 * Largest output file of a render (ffmpeg `-fs`): 64 MB + 4 MB per second of output (32 Mbit/s,
 * far above CRF 20 at 1080p), at most `RENDER_MAX_OUTPUT_BYTES` (8 GiB): a job's temp disk is bounded.
 */
export const outputBudgetBytes = (durationSec: number) =>
  Math.min(Number(process.env.RENDER_MAX_OUTPUT_BYTES) || 8 * 2 ** 30, 64 * 2 ** 20 + 4 * 2 ** 20 * durationSec);

/** The report's shape is the contract's: the Worker reads it with the same schema. */
export type { RenderReport };

export interface RenderResult {
  outputPath: string;
  report: RenderReport;
}

/**
 * Key masks per second in the blur paths (`BLUR_MASKS_PER_SEC`): the segmenter runs on one frame
 * in round(fps / this), the frames between get a blend of the two key masks around them. The
 * segmenter is the blur's largest cost after the encode (~60 ms of CPU per mask); the measured
 * table is in the README.
 */
export const BLUR_MASKS_PER_SEC = Number(process.env.BLUR_MASKS_PER_SEC) || 2;
/**
 * Motion-aware keys: a frame whose 32² gray thumbnail differs from the last key's by more than
 * `BLUR_MOTION_DRIFT` (mean absolute, 0..255) is a key; a change over `BLUR_MOTION_JUMP` between
 * two frames (a cut, a fast move) keys both frames.
 */
export const blurKeyOptions = (fps: number): KeyMaskOptions => ({
  every: Math.max(1, Math.round(fps / BLUR_MASKS_PER_SEC)),
  driftThreshold: Number(process.env.BLUR_MOTION_DRIFT) || 20,
  jumpThreshold: Number(process.env.BLUR_MOTION_JUMP) || 20,
});
/**
 * The frames path (blur with gaze or mouth edits) still holds each mask (MaskTracker: EMA, no
 * lookahead) at the former 4 masks per second: a held mask must not be older than 1/4 s.
 */
const HELD_MASKS_PER_SEC = 4;
const segmentEveryN = (fps: number) => Math.max(1, Math.round(fps / HELD_MASKS_PER_SEC));

/**
 * Renders `input` into `<workDir>/output.mp4`.
 * @example const { outputPath, report } = await renderVideo({ sourcePath, options, workDir }, engines);
 */
export async function renderVideo(input: RenderInput, engines: RenderEngines = {}): Promise<RenderResult> {
  const { options, workDir, signal } = input;
  const stages: Record<string, number> = {};
  const notes: string[] = [];
  const applied: string[] = [];
  const time = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      stages[name] = Math.round(performance.now() - t0);
    }
  };

  // 1. Probe.
  const source = await time('probe', async () => {
    const p = await probeFile(input.sourcePath, signal).catch((err) => {
      throw mediaFailure('media_unreadable', 'the video', err);
    });
    const problem = mediaProblem(p, input.limits ?? mediaLimitsFrom(new Headers()), true);
    if (problem) throw badInput(problem.code, problem.message);
    return p;
  });
  let speechPath = input.speechPath;
  let speechDur: number | null = null;
  if (speechPath) {
    const sp = await time('probe_speech', () =>
      probeFile(speechPath!, signal).catch((err) => {
        throw mediaFailure('speech_unreadable', 'the speech audio', err);
      }),
    );
    if (!sp.audio) throw badInput('speech_unreadable', 'the speech audio has no audio stream');
    const problem = mediaProblem(sp, input.limits ?? mediaLimitsFrom(new Headers()));
    if (problem) throw badInput('speech_unreadable', `the speech audio: ${problem.message}`);
    speechDur = sp.duration_sec;
  }
  // Synthesized speech names its voice (and any fallback note) inside the WAV: see tts/wav.ts.
  const provenance = speechPath ? await readSpeechProvenance(speechPath) : null;
  if (provenance) notes.push(...provenance.notes);
  const plan = planRender(source, speechDur);
  // Bounded work: from here on the render's wall clock follows the real output duration.
  const scope = currentScope();
  if (scope) scope.mediaSec = plan.durationSec;
  scope?.narrow(renderBudgetMs(plan.durationSec), `the render took longer than its budget of ${Math.round(renderBudgetMs(plan.durationSec) / 1000)} s for ${plan.durationSec.toFixed(1)} s of video`);
  if (plan.fit === 'loop') notes.push(`speech (${speechDur!.toFixed(2)} s) is longer than the source (${source.duration_sec.toFixed(2)} s): the source video loops`);
  if (plan.fit === 'trim') notes.push(`speech (${speechDur!.toFixed(2)} s) is shorter than the source: the video is cut at the speech's end`);

  // 2. Audio and offset.
  let audio: AudioInput;
  let lipSyncReport: RenderReport['lip_sync'];
  if (speechPath) {
    audio = { kind: 'speech', path: speechPath };
  } else if (!source.audio) {
    audio = { kind: 'silent' };
    if (options.lip_sync_correction) notes.push('lip_sync_correction: the source has no audio; nothing to align');
  } else {
    audio = { kind: 'source', path: input.sourcePath, lagSec: 0 };
    if (options.lip_sync_correction) {
      if (!engines.estimateAvOffset) throw engineFailure('lipsync_unavailable', 'lip_sync_correction: no offset estimator is configured');
      const est = await time('lipsync_offset', () => engines.estimateAvOffset!(input.sourcePath, source));
      lipSyncReport = { mode: 'offset', measured_lag_ms: Math.round(est.lagSec * 1000), confidence: est.confidence, ...est.details };
      audio.lagSec = est.lagSec;
      // An estimate below the confidence gate is reported, not applied: the audio stays put.
      if (est.details?.applied === false) {
        lipSyncReport.mode = 'none';
        notes.push(`lip_sync_correction: the audio/video offset could not be measured reliably (confidence ${est.confidence.toFixed(2)}); the audio is not shifted`);
      } else applied.push('lip_sync_correction');
    }
  }

  // 3. New speech + lip sync: remote provider first (if configured), then the embedded mouth editor.
  let videoSource = input.sourcePath;
  let remoteUsed = false;
  if (speechPath && options.lip_sync_correction && engines.remoteLipSync) {
    const remote = await time('lipsync_remote', () => engines.remoteLipSync!(input.sourcePath, speechPath!, workDir));
    if (remote) {
      videoSource = remote;
      remoteUsed = true;
      applied.push('lip_sync_correction');
      lipSyncReport = { mode: 'remote', model: options.lip_sync_correction_model };
    }
  }

  // 4. Captions.
  let captionsPath: string | undefined;
  let captionsReport: RenderReport['captions'];
  if (options.captions) {
    const dur = plan.durationSec;
    // The speech was synthesized from (or is known to say) the caption text: align it; any
    // failure falls back to the even split, and the report says why.
    const aligned = speechPath && engines.align
      ? await time('captions_align', () =>
          engines.align!(speechPath!, options.captions!).catch((err) => {
            notes.push(`captions: forced alignment failed (${(err as Error).message}); cue times are an even split`);
            return null;
          }),
        )
      : null;
    const words = aligned && aligned.length > 0 ? aligned : evenWordTimes(options.captions, dur);
    captionsPath = join(workDir, 'captions.vtt');
    await writeFile(captionsPath, toWebVtt(words));
    captionsReport = { cues_from: aligned && aligned.length ? 'alignment' : 'even-split', words: words.length };
    applied.push('captions');
  }

  // 5. Editors.
  const editors: FrameEditor[] = [];
  let mouthEditor: FrameEditor | undefined;
  try {
    // Options whose engine is not available are reported as not applied (notes), not failed:
    // the rest of the render is still what the client asked for.
    if (options.eye_contact_correction) {
      const gaze = engines.gaze?.();
      if (!gaze) notes.push('eye_contact_correction: not applied (no gaze engine in this build)');
      else if (gaze.kind === 'video') {
        // The service returns a corrected copy; it becomes the source of the one local encode.
        videoSource = await time('gaze_remote', () =>
          gaze.correctVideo(videoSource, workDir, signal).catch((err) => {
            throw engineFailure('gaze_provider_error', `eye_contact_correction: ${(err as Error).message}`, err);
          }),
        );
        applied.push('eye_contact_correction');
      } else {
        editors.push(await time('gaze_init', () => gaze.createEditor()));
        applied.push('eye_contact_correction');
      }
    }
    if (speechPath && options.lip_sync_correction && !remoteUsed) {
      if (!engines.mouth) {
        notes.push('lip_sync_correction with new speech: not applied (no mouth engine in this build; set SYNC_API_URL for the remote provider)');
        lipSyncReport = { mode: 'none', model: options.lip_sync_correction_model };
      } else {
        // First in the chain: it recognises the source frame by its pixels before others edit them.
        mouthEditor = await time('mouth_init', () => engines.mouth!(videoSource, plan, speechPath!, signal));
        editors.unshift(mouthEditor);
        applied.push('lip_sync_correction');
        lipSyncReport = { mode: 'embedded', model: options.lip_sync_correction_model };
      }
    }
    let segmenter: Segmenter | undefined;
    if (options.blur_background) {
      if (!engines.segmenter) throw engineFailure('segmenter_unavailable', 'blur_background: no segmenter is configured');
      segmenter = await time('segmenter_init', () => engines.segmenter!());
      applied.push('blur_background');
    }
    try {
      const outputPath = join(workDir, 'output.mp4');
      const loop = plan.fit === 'loop' && !remoteUsed;
      const spec = { plan, audio, captionsPath, output: outputPath, maxBytes: outputBudgetBytes(plan.durationSec) };
      let path: RenderReport['path'];
      let frames: number | undefined;
      let blurReport: Record<string, unknown> | undefined;
      if (editors.length === 0 && !segmenter) {
        path = 'passthrough';
        await time('encode', () => runEncoder({ ...spec, video: { kind: 'file', path: videoSource, loop }, mask: { kind: 'none' } }, signal));
      } else if (editors.length === 0 && segmenter) {
        path = 'mask-pipe';
        const keys = blurKeyOptions(plan.fps);
        const done = await time('encode', () => runMaskPipe(videoSource, loop, spec, segmenter, keys, signal));
        frames = done.frames;
        blurReport = { segmenter: segmenter.name, masks: done.keys, motion_keys: done.motionKeys, key_every: keys.every };
      } else {
        path = 'frames';
        const tracker = segmenter ? new MaskTracker(segmenter, { everyNth: segmentEveryN(plan.fps) }) : undefined;
        frames = await time('encode', () => runFramePipeline(videoSource, loop, spec, editors, tracker, signal));
        if (tracker && segmenter) blurReport = { segmenter: segmenter.name, masks: tracker.segmentations, segment_ms: Math.round(tracker.segmentMs) };
      }
      await checkOutputSize(spec);
      if (mouthEditor && lipSyncReport) {
        const m = mouthEditor.report();
        lipSyncReport = { ...lipSyncReport, engine: m.engine, frames_edited: m.edited, frames: m.frames, bank_patches: m.bank_patches, mean_abs_openness_error: m.mean_abs_openness_error };
        if (m.skipped) {
          // Never claim an edit that did not happen: the source had no usable mouth.
          lipSyncReport = { ...lipSyncReport, mode: 'none', skipped: m.skipped };
          applied.splice(applied.indexOf('lip_sync_correction'), 1);
          notes.push(`lip_sync_correction with new speech: not applied (${m.skipped})`);
        }
      }
      const report: RenderReport = {
        output: { width: plan.width, height: plan.height, fps: plan.fps, duration_sec: plan.durationSec, fit: plan.fit },
        path,
        options_applied: applied,
        stages_ms: stages,
        frames,
        lip_sync: lipSyncReport,
        blur: blurReport,
        editors: editors.length ? Object.fromEntries(editors.map((e) => [e.name, e.report()])) : undefined,
        captions: captionsReport,
        voice: provenance ? { engine: provenance.engine, voice_id: provenance.voice_id } : undefined,
        notes,
      };
      return { outputPath, report };
    } finally {
      segmenter?.dispose();
    }
  } finally {
    for (const e of editors) e.dispose();
  }
}

/** The head of the speech file is enough: the INFO chunk precedes the samples. */
async function readSpeechProvenance(path: string) {
  await using file = await open(path, 'r');
  const head = Buffer.alloc(64 * 1024);
  const { bytesRead } = await file.read(head, 0, head.length, 0);
  return readProvenance(head.subarray(0, bytesRead));
}

async function runEncoder(spec: EncodeSpec, signal?: AbortSignal): Promise<void> {
  using enc = spawnFfmpeg(encoderArgs(spec), signal);
  enc.child.stdin.end();
  enc.child.stdout.resume();
  await enc.done.catch(wrapEncodeError);
}

/** ffmpeg's `-fs` stops writing at the budget and exits 0: a file that reached it is refused. */
async function checkOutputSize(spec: Pick<EncodeSpec, 'output' | 'maxBytes'>): Promise<void> {
  if (!spec.maxBytes) return;
  const { size } = await stat(spec.output);
  if (size >= spec.maxBytes * 0.99) {
    throw badInput('output_too_large', `the processed video exceeded its size budget of ${Math.round(spec.maxBytes / 2 ** 20)} MB`);
  }
}

/**
 * Blur only: small RGB frames → key masks (the segmenter process, key frames only, blends
 * between) → yuv420p masks → the encoder, which reads the source itself and composites.
 */
async function runMaskPipe(
  source: string,
  loop: boolean,
  spec: Omit<EncodeSpec, 'video' | 'mask'>,
  segmenter: Segmenter,
  keys: KeyMaskOptions,
  signal?: AbortSignal,
): Promise<{ frames: number; keys: number; motionKeys: number }> {
  const { inputWidth: mw, inputHeight: mh } = segmenter;
  const mask: MaskInput = { kind: 'pipe', width: mw, height: mh };
  const video: VideoInput = { kind: 'file', path: source, loop };
  using enc = spawnFfmpeg(encoderArgs({ ...spec, video, mask }), signal);
  using dec = spawnFfmpeg(decoderArgs(source, spec.plan, { loop, width: mw, height: mh, pixFmt: 'rgb24', rough: true }), signal);
  dec.child.stdin.end();
  enc.child.stdout.resume();
  let n = 0;
  const stream = new KeyMaskStream(segmenter, keys, async (m) => {
    await writeWithBackpressure(enc.child.stdin, yuv420pMask(m, mw, mh));
    n++;
  });
  const pump = async () => {
    for await (const rgb of readRecords(dec.child.stdout, mw * mh * 3)) await stream.push(rgb);
    await stream.end();
    enc.child.stdin.end();
  };
  await settle(pump(), dec, enc);
  return { frames: n, keys: stream.keys, motionKeys: stream.motionKeys };
}

/** Gaze/mouth edits: RGBA frames → editors (+ mask into alpha) → encoder. */
async function runFramePipeline(
  source: string,
  loop: boolean,
  spec: Omit<EncodeSpec, 'video' | 'mask'>,
  editors: FrameEditor[],
  tracker: MaskTracker | undefined,
  signal?: AbortSignal,
): Promise<number> {
  const { plan } = spec;
  const mask: MaskInput = tracker ? { kind: 'alpha' } : { kind: 'none' };
  using enc = spawnFfmpeg(encoderArgs({ ...spec, video: { kind: 'raw' }, mask }), signal);
  using dec = spawnFfmpeg(decoderArgs(source, plan, { loop, pixFmt: 'rgba' }), signal);
  dec.child.stdin.end();
  enc.child.stdout.resume();
  let n = 0;
  // Editors with lookahead see frames at decode time; frames wait in this bounded FIFO
  // (lookahead + 1 frames of memory) until every editor can edit them.
  const lookahead = Math.max(0, ...editors.map((e) => e.lookahead ?? 0));
  const held: RawFrame[] = [];
  const emit = async (frame: RawFrame) => {
    for (const e of editors) await e.edit(frame);
    await writeWithBackpressure(enc.child.stdin, frame.data);
    n++;
  };
  const pump = async () => {
    for await (const frame of readFrames(dec.child.stdout, { width: plan.width, height: plan.height, channels: 4, fps: plan.fps })) {
      if (tracker) {
        // Segment the unedited frame: edits are tiny and must not change the mask.
        const small = tracker.needsInput(frame.index)
          ? downsampleRgba(frame.data, plan.width, plan.height, tracker.width, tracker.height)
          : undefined;
        const m = await tracker.next(frame.index, small);
        upsampleMaskIntoAlpha(m, tracker.width, tracker.height, frame.data, plan.width, plan.height);
      }
      for (const e of editors) if (e.observe) await e.observe(frame);
      held.push(frame);
      if (held.length > lookahead) await emit(held.shift()!);
    }
    while (held.length) await emit(held.shift()!);
    enc.child.stdin.end();
  };
  await settle(pump(), dec, enc);
  return n;
}

/** Waits for the pump and both processes; the first failure wins and stops the others. */
async function settle(pump: Promise<void>, dec: { done: Promise<void>; dispose(): void }, enc: { done: Promise<void>; dispose(): void }) {
  const all = [
    pump.catch((err) => {
      throw err instanceof RenderError ? err : engineFailure('render_failed', `frame pipeline: ${(err as Error).message}`, err);
    }),
    dec.done.catch((err) => {
      throw mediaFailure('media_unreadable', 'the video', err);
    }),
    enc.done.catch(wrapEncodeError),
  ];
  try {
    await Promise.all(all);
  } catch (err) {
    dec.dispose();
    enc.dispose();
    const results = await Promise.allSettled(all);
    // A dead encoder shows up first as EPIPE in the pump; a process's own failure is the precise one.
    const precise = [results[1], results[2]].find((r) => r.status === 'rejected' && (r.reason as RenderError).status !== 500);
    throw precise?.status === 'rejected' ? precise.reason : err;
  }
}

function wrapEncodeError(err: unknown): never {
  throw mediaFailure('encode_failed', 'the video', err);
}

/**
 * A failed media process as a RenderError: bad input, a limit or DELETE are final (422, never
 * retried: the same file fails the same way); machine trouble (killed by the system, disk full)
 * is 500 and retried. The message is plain (no ffmpeg internals).
 */
function mediaFailure(code: RenderErrorCode, what: string, err: unknown): RenderError {
  if (err instanceof RenderError) return err;
  const message = plainMediaError(err, what);
  return isTransientMediaFailure(err) ? engineFailure(code, message, err) : badInput(code, message, err);
}
