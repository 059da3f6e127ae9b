/**
 * @module
 * The `edge-audio` Worker (`video-api-edge-audio`): ffmpeg.wasm audio extraction behind a
 * service binding. It exists because ffmpeg-core.wasm alone is ~10 MB gzip, so it cannot
 * share a Worker with the API (Cloudflare's compressed size limit is 10 MB): the API Worker
 * binds it as `EDGE_AUDIO` (entrypoint `EdgeAudio`) and calls `extract()` over RPC.
 *
 * `extract(input, options)`: `input` is the media file, bytes or a stream (an R2 body can be
 * passed straight through). Answers 16 kHz mono s16le PCM. Errors: see `rpc.ts`.
 * `warmUp()`: starts the decoder ahead of the first job (the API Worker's warm-up, `/healthz`).
 * `fetch`: `GET /health` → 200 `{ ok: true }`; anything else 404 (no public HTTP API).
 */
import { WorkerEntrypoint } from 'cloudflare:workers';
import { EdgeBudgetError } from '../ffmpeg/errors.js';
import { extractPcm16k } from '../ffmpeg/extract-pcm.js';
import { warmUpFFmpeg } from '../ffmpeg/warm-up.js';
import { EDGE_AUDIO_MAX_BYTES } from '../ffmpeg/limits.js';
import {
  encodeEdgeAudioError,
  type EdgeAudioOptions,
  type EdgeAudioResult,
  type EdgeAudioRpc,
} from './rpc.js';

export type { EdgeAudioOptions, EdgeAudioResult, EdgeAudioRpc } from './rpc.js';

export class EdgeAudio extends WorkerEntrypoint implements EdgeAudioRpc {
  /** Decodes an audio stream of `input` (the first by default) to 16 kHz mono s16le PCM. */
  async extract(
    input: Uint8Array | ReadableStream<Uint8Array>,
    options: EdgeAudioOptions = {},
  ): Promise<EdgeAudioResult> {
    const { maxBytes = EDGE_AUDIO_MAX_BYTES, maxDurationSec, size, mix, stream } = options;
    try {
      const bytes = input instanceof Uint8Array ? input : await readAll(input, maxBytes, size);
      const audio = await extractPcm16k(bytes, { maxBytes, maxDurationSec, mix, stream });
      const { pcm } = audio;
      return {
        pcm: new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength),
        durationSec: audio.durationSec,
        hasAudio: audio.hasAudio,
        hasVideo: audio.hasVideo,
      };
    } catch (error) {
      throw encodeEdgeAudioError(error);
    }
  }

  async warmUp(): Promise<void> {
    await warmUpFFmpeg();
  }

  override async fetch(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (request.method === 'GET' && pathname === '/health')
      return Response.json({ ok: true, service: 'edge-audio' });
    return new Response('not found: this Worker is reached by RPC (EdgeAudio.extract)', { status: 404 });
  }
}

/** The default entrypoint answers HTTP like the class does (health check, else 404). */
export default class extends EdgeAudio {}

/**
 * Reads a stream into one buffer, stopping as soon as it passes `maxBytes`. With a known
 * `size` the buffer is allocated once (no concatenation copy).
 */
async function readAll(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
  size?: number,
): Promise<Uint8Array> {
  const overBudget = (n: number) =>
    new EdgeBudgetError(`input is ${n}+ bytes, over the edge budget of ${maxBytes}`, 'bytes');
  if (size !== undefined && size > maxBytes) {
    await stream.cancel();
    throw overBudget(size);
  }
  const reader = stream.getReader();
  let buffer = new Uint8Array(size ?? 1024 * 1024);
  let length = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (length + value.byteLength > maxBytes) {
        await reader.cancel();
        throw overBudget(length + value.byteLength);
      }
      if (length + value.byteLength > buffer.byteLength) {
        const grown = new Uint8Array(
          Math.min(maxBytes, Math.max(buffer.byteLength * 2, length + value.byteLength)),
        );
        grown.set(buffer.subarray(0, length));
        buffer = grown;
      }
      buffer.set(value, length);
      length += value.byteLength;
    }
  } finally {
    reader.releaseLock();
  }
  return length === buffer.byteLength ? buffer : buffer.subarray(0, length);
}
