/**
 * @module containers/media/engines/asr/pcm
 * Helpers for the one audio format the speech engines take (16 kHz mono signed 16-bit PCM),
 * and the decoder processes' peak memory.
 */
import { readFileSync } from 'node:fs';
import { PCM_FORMAT } from '../../../../src/contract/media-protocol.js';
import { AsrInputError } from './errors.js';

/** Sample rate every ASR engine receives, in Hz: the protocol's. */
export const ASR_SAMPLE_RATE_HZ = PCM_FORMAT.sampleRateHz;
/** Bytes per sample of s16le PCM. */
export const PCM_BYTES_PER_SAMPLE = PCM_FORMAT.bytesPerSample;

/** Duration in seconds of `samples` samples at 16 kHz. */
export const pcmDurationSec = (samples: number): number => samples / ASR_SAMPLE_RATE_HZ;

/**
 * Views (or copies, when unaligned) little-endian s16 bytes as an Int16Array.
 * Throws AsrInputError for an empty or odd-length body.
 */
export function pcmFromBytes(bytes: Uint8Array): Int16Array {
  if (bytes.byteLength === 0)
    throw new AsrInputError('invalid_audio', 'audio body is empty; expected s16le 16 kHz mono PCM');
  if (bytes.byteLength % PCM_BYTES_PER_SAMPLE !== 0) {
    throw new AsrInputError(
      'invalid_audio',
      `audio body has ${bytes.byteLength} bytes; s16le PCM needs an even count`,
    );
  }
  if (bytes.byteOffset % PCM_BYTES_PER_SAMPLE === 0) {
    return new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / PCM_BYTES_PER_SAMPLE);
  }
  return new Int16Array(bytes.slice().buffer);
}

/** The bytes of an Int16Array (no copy), for writing to files and pipes. */
export const pcmToBytes = (pcm: Int16Array): Uint8Array =>
  new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength);

/** Converts s16 samples to floats in [-1, 1), as WebAssembly decoders want. */
export function pcmToFloat32(pcm: Int16Array): Float32Array {
  const out = new Float32Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = pcm[i] / 32_768;
  return out;
}

/** The samples of [startSec, endSec] of `pcm` (a view, no copy). */
export const slicePcm = (pcm: Int16Array, startSec: number, endSec: number): Int16Array =>
  pcm.subarray(Math.floor(startSec * ASR_SAMPLE_RATE_HZ), Math.ceil(endSec * ASR_SAMPLE_RATE_HZ));

/** VmHWM (peak resident set) of a live decoder process in bytes; 0 when unavailable. */
export function readPeakRss(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const m = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0; // exited between polls
  }
}
