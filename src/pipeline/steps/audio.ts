/**
 * @module pipeline/steps/audio
 * Audio extraction to the protocol's PCM (16 kHz mono s16le, `PCM_FORMAT`), stored once per job at `work/{id}/audio.pcm`.
 * Inputs within the edge budget are decoded at the edge with ffmpeg.wasm, in the `edge-audio`
 * Worker reached by the `EDGE_AUDIO` service binding (ffmpeg.wasm is too big to bundle here);
 * larger ones, anything ffmpeg.wasm cannot read, or every input when the binding is absent, by
 * native ffmpeg in the media container.
 */
import type { TimeSegment } from '../../contract/media.js';
import { type AudioChoice, PCM_BYTES_PER_SEC, PCM_FORMAT } from '../../contract/media-protocol.js';
import {
  detectSpeech,
  EDGE_AUDIO_MAX_BYTES,
  extractWithEdgeAudio,
  getSileroSession,
} from '../../../wasm/index.js';
import { numberVar } from '../../shared/env.js';
import { iterate, streamToR2 } from '../../storage/r2-upload.js';
import type { Step, StepContext } from '../context.js';
import { audioCandidates, clearestCandidate } from '../../contract/audio-choice.js';
import { LoudEndMeter, type OtherAudioReason, tooQuietForSpeech } from './audio-choice.js';
import { probeSource } from './probe.js';

export const audioKey = (ctx: StepContext) => ctx.workKey('audio.pcm');

/** The VAD, prosody and the stored audio's loud end read the PCM in windows of this length. */
export const ANALYSIS_WINDOW_SEC = 60;

/**
 * Rows of one batched Silero run (wasm/vad/batch-plan.ts): 1 is the exact sequential pass, 16 the
 * fastest (−40 % of the inference) with ~4 % of frame decisions moved near the row seams
 * (wasm/test/vad.test.ts). 8 (default, as in wrangler.toml, which docs/benchmarks.md's speech
 * figures ran with) sits between: the segments only choose what Whisper decodes, and the
 * aligner times the words. `VAD_MAX_BATCH` chooses.
 */
export const DEFAULT_VAD_MAX_BATCH = 8;

/** The VAD's batch rows for this Worker (`VAD_MAX_BATCH`, else the default). */
export const vadMaxBatch = (env: StepContext['env']): number =>
  numberVar(env.VAD_MAX_BATCH, DEFAULT_VAD_MAX_BATCH);

/**
 * The VAD's speech in the stored audio, window by window (`ANALYSIS_WINDOW_SEC`), as it is found;
 * `minSpeechMs`: the shortest stretch that counts (default: the VAD's, every burst).
 */
export async function* speechByWindow(
  ctx: StepContext,
  minSpeechMs?: number,
): AsyncGenerator<{ offsetSec: number; found: TimeSegment[] }> {
  const options = { maxBatch: vadMaxBatch(ctx.env), minSpeechMs };
  for await (const { offsetSec, samples } of pcmWindows(ctx, ANALYSIS_WINDOW_SEC))
    yield { offsetSec, found: await detectSpeech(samples, options) };
}

/**
 * The shortest stretch of the VAD's speech by which a track holds speech, ms (Silero's own shortest
 * segment). Whisper is handed every burst, but a loud tone's onset or a note crosses the VAD's
 * threshold for a frame or a few, and a track of only that holds no speech.
 */
export const TRACK_SPEECH_MIN_MS = 250;

/** Where the audio was decoded, for the job's log. */
export type AudioPath = 'edge' | 'container';

/** The stored audio: where it was decoded, which of the file's audio it is, and how loud. */
export interface StoredAudio extends AudioChoice {
  path: AudioPath;
  /** Why it is not the first stream's average, when it is not (absent: `quiet`, as before this field). */
  reason?: OtherAudioReason;
  /** Its loud end (`LoudEndMeter`: the loudest 60 s window's `loudLevelDbfs`, dBFS); null for digital silence. */
  loud_end_dbfs: number | null;
}

/**
 * Decodes the source's audio and stores it at `audioKey`: the first stream's channels averaged,
 * unless that is too quiet for speech and another candidate is clearly louder, or holds no speech
 * and a later track does (./audio-choice.ts).
 */
async function extractAudio(ctx: StepContext): Promise<StoredAudio> {
  const audio = (await probeSource(ctx)).audio;
  const candidates = audio ? audioCandidates(audio) : [{ stream: 0, mix: 'mid' as const }];
  const loudEnds: number[] = [];
  let last: Awaited<ReturnType<typeof storeAudio>> | null = null;
  for (const candidate of candidates) {
    last = await storeAudio(ctx, candidate);
    loudEnds.push(last.loudEndDbfs);
    if (!tooQuietForSpeech(last.loudEndDbfs)) break;
  }
  const keep = clearestCandidate(loudEnds);
  // The last candidate tried is the one stored.
  let kept = keep === loudEnds.length - 1 ? last! : await storeAudio(ctx, candidates[keep]!);
  const chosen = stored(candidates[keep]!, kept, keep > 0 ? 'quiet' : undefined);
  // Only a file of several tracks pays for this look at the speech (the VAD step looks again).
  if (!audio || (audio.streams ?? 1) < 2 || (await storedHasSpeech(ctx))) return chosen;
  // The tracks the loudness did not reach (it stops at the first loud enough); those it found too
  // quiet are not decoded again.
  const later = candidates.slice(loudEnds.length).filter((c) => c.mix === 'mid');
  for (const track of later) {
    const candidate = await storeAudio(ctx, track);
    if (!tooQuietForSpeech(candidate.loudEndDbfs) && (await storedHasSpeech(ctx)))
      return stored(track, candidate, 'no_speech');
  }
  // No track has speech: the loudness's choice stands, stored again if another was tried.
  if (later.length) kept = await storeAudio(ctx, candidates[keep]!);
  return stored(candidates[keep]!, kept, chosen.reason);
}

const stored = (
  choice: AudioChoice,
  { path, loudEndDbfs }: { path: AudioPath; loudEndDbfs: number },
  reason: OtherAudioReason | undefined,
): StoredAudio => ({
  path,
  ...choice,
  ...(reason ? { reason } : {}),
  loud_end_dbfs: Number.isFinite(loudEndDbfs) ? loudEndDbfs : null,
});

/** Whether the VAD finds any speech in the stored audio; it reads the windows until it does. */
async function storedHasSpeech(ctx: StepContext): Promise<boolean> {
  for await (const { found } of speechByWindow(ctx, TRACK_SPEECH_MIN_MS)) if (found.length > 0) return true;
  return false;
}

/**
 * The job's stored audio, extracted once (memo `audio`): a run stopped between the mixes of a
 * stereo file extracts again rather than keep a mix it had not chosen.
 */
export function storedAudio(ctx: StepContext): Promise<StoredAudio> {
  return ctx.memo('audio', () => extractAudio(ctx));
}

/** Decodes the chosen audio and stores it; where it was decoded and its loud end (`LoudEndMeter`). */
async function storeAudio(
  ctx: StepContext,
  choice: AudioChoice,
): Promise<{ path: AudioPath; loudEndDbfs: number }> {
  const budget = numberVar(ctx.env.EDGE_AUDIO_MAX_BYTES, EDGE_AUDIO_MAX_BYTES);
  const edge = ctx.env.EDGE_AUDIO;
  const { size, filename, content_type } = ctx.job.source;
  const meter = new LoudEndMeter(ANALYSIS_WINDOW_SEC * PCM_FORMAT.sampleRateHz);
  const tryEdge = edge !== undefined && size <= budget && !isRawPcm(filename, content_type);
  if (tryEdge) {
    try {
      // The R2 body goes to the edge-audio Worker as a stream: nothing is buffered here.
      const { body } = await ctx.source();
      const { pcm } = await extractWithEdgeAudio(edge, body, { maxBytes: budget, size, ...choice });
      const bytes = new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength);
      meter.push(bytes);
      await ctx.bucket.put(audioKey(ctx), bytes);
      logPath(ctx, 'edge', size);
      return { path: 'edge', loudEndDbfs: meter.loudEndDbfs() };
    } catch (err) {
      // Over the duration budget, a demuxer/decoder ffmpeg.wasm lacks, or the binding failed: fall through.
      console.warn(
        JSON.stringify({ level: 'warn', video_id: ctx.job.video_id, edge_audio_failed: String(err) }),
      );
    }
  }
  // The container reads the job's source it already has (or is sent it now).
  const pcm = await ctx.media.extractAudio(choice);
  await streamToR2(ctx.bucket, audioKey(ctx), metered(iterate(pcm), meter));
  logPath(
    ctx,
    'container',
    size,
    edge === undefined
      ? 'no EDGE_AUDIO binding'
      : tryEdge
        ? 'edge decode failed'
        : 'over edge budget or raw PCM',
  );
  return { path: 'container', loudEndDbfs: meter.loudEndDbfs() };
}

async function* metered(chunks: AsyncIterable<Uint8Array>, meter: LoudEndMeter): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) {
    meter.push(chunk);
    yield chunk;
  }
}

/** One log line per job saying where its audio was decoded. */
function logPath(ctx: StepContext, path: AudioPath, bytes: number, reason?: string): void {
  console.log(
    JSON.stringify({
      level: 'info',
      video_id: ctx.job.video_id,
      audio_decoded_by: path,
      input_bytes: bytes,
      ...(reason ? { reason } : {}),
    }),
  );
}

const isRawPcm = (filename: string | null, type: string | null) =>
  /\.(raw|pcm|s16le)$/i.test(filename ?? '') || /^audio\/(l16|pcm)\b/i.test(type ?? '');

export const audioStep: Step = {
  name: 'audio',
  weight: 10,
  async run(ctx) {
    const probe = await probeSource(ctx);
    if (!probe.audio) return;
    // Load the VAD model now, without waiting (once per isolate): compiling onnxruntime's wasm
    // and the model overlaps the extraction's waits. A failure is reported by the VAD step.
    getSileroSession().catch(() => {});
    await storedAudio(ctx);
  },
};

/** Reads the stored PCM in windows of `windowSec`, as Int16 samples (bounded memory). */
export async function* pcmWindows(
  ctx: StepContext,
  windowSec: number,
): AsyncGenerator<{ offsetSec: number; samples: Int16Array }> {
  const head = await ctx.bucket.head(audioKey(ctx));
  if (!head) return;
  const windowBytes = Math.round(windowSec * PCM_FORMAT.sampleRateHz) * PCM_FORMAT.bytesPerSample;
  for (let offset = 0; offset < head.size; offset += windowBytes) {
    const obj = await ctx.bucket.get(audioKey(ctx), {
      range: { offset, length: Math.min(windowBytes, head.size - offset) },
    });
    if (!obj) return;
    const buf = await obj.arrayBuffer();
    yield {
      offsetSec: offset / PCM_BYTES_PER_SEC,
      samples: new Int16Array(buf, 0, Math.floor(buf.byteLength / 2)),
    };
  }
}
