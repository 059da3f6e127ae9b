/**
 * @module
 * The contract of the `edge-audio` Worker (ffmpeg.wasm behind a service binding), shared by
 * the Worker and its callers. No runtime imports beyond the error classes, so the API
 * Worker can call the decoder without bundling ffmpeg.wasm (~10 MB gzip on its own).
 *
 * Errors cross the RPC boundary as plain `Error`s (workerd keeps only the message of a
 * custom error class), so the Worker encodes the class in the message
 * ({@link encodeEdgeAudioError}) and {@link extractWithEdgeAudio} revives it.
 *
 * @example
 * const obj = await env.MEDIA.get(key);
 * const audio = await extractWithEdgeAudio(env.EDGE_AUDIO, obj.body, { size: obj.size });
 */
import { EdgeBudgetError, MediaDecodeError } from '../ffmpeg/errors.js';
import type { ChannelMix, PcmAudio } from '../ffmpeg/extract-pcm.js';
import { PCM_SAMPLE_RATE_HZ } from '../ffmpeg/limits.js';

export interface EdgeAudioOptions {
  /** Largest accepted input in bytes (default 32 MiB). Larger → `EdgeBudgetError('bytes')`. */
  maxBytes?: number;
  /** Longest accepted audio in seconds (default 600). Longer → `EdgeBudgetError('duration')`. */
  maxDurationSec?: number;
  /** Byte length of a streamed input when known (R2 `size`): read into one buffer, no copy. */
  size?: number;
  /** How the channels become one (`extractPcm16k`'s `mix`). Default `mid`. */
  mix?: ChannelMix;
  /** Which audio stream (`extractPcm16k`'s `stream`). Default 0, the first. */
  stream?: number;
}

export interface EdgeAudioResult {
  /** Mono 16 kHz signed 16-bit little-endian PCM; empty when the input has no audio. */
  pcm: Uint8Array;
  durationSec: number;
  hasAudio: boolean;
  hasVideo: boolean;
}

/** What the `EDGE_AUDIO` service binding offers (the `EdgeAudio` entrypoint's RPC method). */
export interface EdgeAudioRpc {
  extract(
    input: Uint8Array | ReadableStream<Uint8Array>,
    options?: EdgeAudioOptions,
  ): Promise<EdgeAudioResult>;
  /** Starts this isolate's decoder and decodes a tiny input once (see `wasm/ffmpeg/warm-up.ts`). */
  warmUp(): Promise<void>;
}

const ENCODED = /^(EdgeBudgetError|MediaDecodeError)(?:\[(bytes|duration)\])?: ([^\n]*)(?:\n([\s\S]*))?$/;

/** The message an error of the decode crosses RPC with (class, budget, message, ffmpeg log). */
export function encodeEdgeAudioError(error: unknown): Error {
  if (error instanceof EdgeBudgetError) return new Error(`EdgeBudgetError[${error.limit}]: ${error.message}`);
  if (error instanceof MediaDecodeError)
    return new Error(`MediaDecodeError: ${error.message}\n${error.log.join('\n')}`);
  return error instanceof Error ? error : new Error(String(error));
}

/** Turns an error thrown through the binding back into `EdgeBudgetError` / `MediaDecodeError`. */
export function decodeEdgeAudioError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const match = ENCODED.exec(error.message);
  if (!match) return error;
  const [, name, limit, message, log] = match;
  if (name === 'EdgeBudgetError')
    return new EdgeBudgetError(message, (limit as 'bytes' | 'duration') ?? 'bytes');
  return new MediaDecodeError(message, log ? log.split('\n') : [], { cause: error });
}

/**
 * Decodes `input` with the `edge-audio` Worker behind `service` and returns it as
 * {@link PcmAudio}. A stream (e.g. an R2 body) is passed through without buffering here.
 *
 * @throws {EdgeBudgetError} over `maxBytes` / `maxDurationSec`.
 * @throws {MediaDecodeError} when ffmpeg.wasm cannot read the input.
 * @throws {Error} anything else (binding unreachable, Worker exceeded its limits).
 */
export async function extractWithEdgeAudio(
  service: EdgeAudioRpc,
  input: Uint8Array | ReadableStream<Uint8Array>,
  options: EdgeAudioOptions = {},
): Promise<PcmAudio> {
  let result: EdgeAudioResult;
  try {
    result = await service.extract(input, options);
  } catch (error) {
    throw decodeEdgeAudioError(error);
  }
  const { pcm: bytes, durationSec, hasAudio, hasVideo } = result;
  const pcm =
    bytes.byteOffset % 2 === 0
      ? new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 1)
      : new Int16Array(bytes.slice(0, bytes.byteLength & ~1).buffer);
  return { pcm, sampleRate: PCM_SAMPLE_RATE_HZ, durationSec, hasAudio, hasVideo };
}
