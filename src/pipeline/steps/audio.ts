/**
 * @module pipeline/steps/audio
 * Audio extraction to the protocol's PCM (16 kHz mono s16le, `PCM_FORMAT`), stored once per job at `work/{id}/audio.pcm`.
 * Inputs within the edge budget are decoded at the edge with ffmpeg.wasm, in the `edge-audio`
 * Worker reached by the `EDGE_AUDIO` service binding (ffmpeg.wasm is too big to bundle here);
 * larger ones, anything ffmpeg.wasm cannot read, or every input when the binding is absent, by
 * native ffmpeg in the media container.
 */
import { PCM_BYTES_PER_SEC, PCM_FORMAT } from '../../contract/media-protocol.js';
import { EDGE_AUDIO_MAX_BYTES, extractWithEdgeAudio, getSileroSession } from '../../../wasm/index.js';
import { numberVar } from '../../shared/env.js';
import { iterate, streamToR2 } from '../../storage/r2-upload.js';
import type { Step, StepContext } from '../context.js';
import { probeSource } from './probe.js';

export const audioKey = (ctx: StepContext) => ctx.workKey('audio.pcm');

/** Where the audio was decoded, for the job's log. */
export type AudioPath = 'edge' | 'container';

export async function extractAudio(ctx: StepContext): Promise<AudioPath> {
  const budget = numberVar(ctx.env.EDGE_AUDIO_MAX_BYTES, EDGE_AUDIO_MAX_BYTES);
  const edge = ctx.env.EDGE_AUDIO;
  const { size, filename, content_type } = ctx.job.source;
  const tryEdge = edge !== undefined && size <= budget && !isRawPcm(filename, content_type);
  if (tryEdge) {
    try {
      // The R2 body goes to the edge-audio Worker as a stream: nothing is buffered here.
      const { body } = await ctx.source();
      const { pcm } = await extractWithEdgeAudio(edge, body, { maxBytes: budget, size });
      await ctx.bucket.put(audioKey(ctx), new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength));
      logPath(ctx, 'edge', size);
      return 'edge';
    } catch (err) {
      // Over the duration budget, a demuxer/decoder ffmpeg.wasm lacks, or the binding failed: fall through.
      console.warn(
        JSON.stringify({ level: 'warn', video_id: ctx.job.video_id, edge_audio_failed: String(err) }),
      );
    }
  }
  // The container reads the job's source it already has (or is sent it now).
  const pcm = await ctx.media.extractAudio();
  await streamToR2(ctx.bucket, audioKey(ctx), iterate(pcm));
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
  return 'container';
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
    if (await ctx.bucket.head(audioKey(ctx))) return;
    await extractAudio(ctx);
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
