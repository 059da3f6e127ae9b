/**
 * @module
 * `warmUpFFmpeg`: starts this isolate's ffmpeg core and decodes a tiny input once, so the first
 * job's extraction does not pay for the core's start (instantiating ~32 MB of wasm memory, the
 * runtime's own set-up) and the first run through the decode path.
 */
import { extractPcm16k } from './extract-pcm.js';
import { PCM_SAMPLE_RATE_HZ } from './limits.js';

/** Length of the silent WAV the warm-up decodes. */
const WARM_UP_SEC = 0.1;

/**
 * Pure: a mono 16-bit PCM WAV file of `seconds` of silence at `sampleRate`.
 * @example silentWav(0.1).byteLength // 44 + 3200
 */
export function silentWav(seconds: number, sampleRate: number = PCM_SAMPLE_RATE_HZ): Uint8Array {
  const dataBytes = Math.round(seconds * sampleRate) * 2;
  const wav = new Uint8Array(44 + dataBytes);
  const view = new DataView(wav.buffer);
  const ascii = (offset: number, text: string) =>
    [...text].forEach((ch, i) => view.setUint8(offset + i, ch.charCodeAt(0)));
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true); // fmt chunk size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true); // bytes per second
  view.setUint16(32, 2, true); // bytes per frame
  view.setUint16(34, 16, true); // bits per sample
  ascii(36, 'data');
  view.setUint32(40, dataBytes, true);
  return wav;
}

/** Decodes a short silent WAV with this isolate's core (starting it if needed). */
export async function warmUpFFmpeg(): Promise<void> {
  await extractPcm16k(silentWav(WARM_UP_SEC));
}
