/**
 * @module pipeline/steps/speech
 * Voice activity (Silero VAD in the Worker), speech recognition (the container's AsrEngine) and
 * prosody (pitch/energy, pure TS). PCM is read from R2 in windows so memory stays bounded.
 */
import { PCM_FORMAT } from '../../contract/media-protocol.js';
import { isTooQuietForVad, VAD_MAX_GAIN_DB, VAD_SPEECH_LEVEL_DBFS } from '../../../wasm/index.js';
import { computeProsody } from '../../analytics/speech/prosody.js';
import type { AsrOutput, ProsodyTrack, TimeSegment } from '../../contract/media.js';
import type { Step, StepContext } from '../context.js';
import { asrBatches, joinAsrOutputs, pcmRange } from './asr-batches.js';
import { ANALYSIS_WINDOW_SEC, audioKey, pcmWindows, speechByWindow } from './audio.js';
import { probeSource } from './probe.js';

/** Segments touching a seam of the VAD's windows (`ANALYSIS_WINDOW_SEC`) are joined. */
const SEAM_JOIN_SEC = 0.05;
const hasAudio = async (ctx: StepContext) => (await probeSource(ctx)).audio !== null;

export const vadStep: Step = {
  name: 'vad',
  weight: 5,
  async run(ctx) {
    if (!(await hasAudio(ctx))) return;
    await speechSegments(ctx);
  },
};

export async function speechSegments(ctx: StepContext): Promise<TimeSegment[]> {
  return ctx.memo('vad', async () => {
    const all: TimeSegment[] = [];
    for await (const { offsetSec, found } of speechByWindow(ctx))
      for (const s of found) appendJoined(all, { start: s.start + offsetSec, end: s.end + offsetSec });
    return all;
  });
}

/**
 * The result's warning for a recording quieter than the VAD's gain makes up for
 * (`isTooQuietForVad`): whole sentences of it may be missed. Null otherwise.
 */
export function quietRecordingWarning(loudEndDbfs: number | null): string | null {
  if (loudEndDbfs === null || !isTooQuietForVad(loudEndDbfs)) return null;
  return (
    `the recording is very quiet (its loudest sounds at ${Math.round(loudEndDbfs)} dBFS; speech ` +
    `detection raises audio by at most ${VAD_MAX_GAIN_DB} dB, towards ${VAD_SPEECH_LEVEL_DBFS} dBFS): ` +
    'quieter speech may be missed; record closer to the microphone or with more input gain'
  );
}

/** Appends a segment, joining it to the last one when they meet at a window seam. */
export function appendJoined(list: TimeSegment[], seg: TimeSegment): void {
  const last = list.at(-1);
  if (last && seg.start - last.end <= SEAM_JOIN_SEC) last.end = Math.max(last.end, seg.end);
  else list.push({ ...seg });
}

export const asrStep: Step = {
  name: 'asr',
  weight: 40,
  async run(ctx) {
    if (!(await hasAudio(ctx))) return;
    await transcript(ctx);
  },
};

export async function transcript(ctx: StepContext): Promise<AsrOutput> {
  const segments = await speechSegments(ctx);
  // The client's language (analysis option), else the container detects it.
  const requested: string | undefined = 'language' in ctx.job.options ? ctx.job.options.language : undefined;
  return ctx.memo('asr', async () => {
    const batches = asrBatches(segments);
    if (batches.length <= 1) {
      const pcm = await ctx.bucket.get(audioKey(ctx));
      if (!pcm) return { engine: 'none', words: [] };
      return ctx.media.transcribe(pcm.body, segments, requested);
    }
    // Long media: one request per batch, each with its own range of the PCM (see asr-batches);
    // the first batch's language holds for the others (only the first switches a long stretch
    // in another language to its own; docs/languages.md, "Mixed").
    const parts: Array<{ fromSec: number; output: AsrOutput }> = [];
    let language = requested;
    for (const batch of batches) {
      const pcm = await ctx.bucket.get(audioKey(ctx), { range: pcmRange(batch) });
      if (!pcm) return { engine: 'none', words: [] };
      const output = await ctx.media.transcribe(pcm.body, batch.segments, language);
      language ??= output.language ?? undefined;
      parts.push({ fromSec: batch.fromSec, output });
    }
    return joinAsrOutputs(parts);
  });
}

export const prosodyStep: Step = {
  name: 'prosody',
  weight: 5,
  async run(ctx) {
    if (!(await hasAudio(ctx))) return;
    await prosody(ctx);
  },
};

export async function prosody(ctx: StepContext): Promise<ProsodyTrack | undefined> {
  if (!(await hasAudio(ctx))) return undefined;
  return ctx.memo('prosody', async () => {
    let track: ProsodyTrack | null = null;
    for await (const { samples } of pcmWindows(ctx, ANALYSIS_WINDOW_SEC)) {
      const floats = Float32Array.from(samples, (v) => v / 32_768);
      const part = computeProsody(floats, PCM_FORMAT.sampleRateHz);
      if (!track) track = part;
      else {
        track.pitch_hz.push(...part.pitch_hz);
        track.energy_db.push(...part.energy_db);
      }
    }
    return track ?? { frame_sec: 0.01, pitch_hz: [], energy_db: [] };
  });
}
