/**
 * @module containers/media/engines/lipsync/envelope
 * Speech energy envelope of a media file: ffmpeg decodes to 16 kHz mono, band-passed (so hum
 * and hiss do not move the envelope), then RMS in 10 ms hops, in dB.
 */
import { spawnFfmpeg } from '../../core/ffmpeg.js';

export const ENVELOPE_HZ = 100;
const SAMPLE_RATE_HZ = 16_000;
const HOP = SAMPLE_RATE_HZ / ENVELOPE_HZ;
/** The whole voice band: the default, for "is someone speaking and how loud". */
export const VOICE_BAND_HZ = [200, 3500] as const;
/**
 * The second-formant region. Its energy follows how far the lips and jaw are open more closely
 * than the full band does (Grant & Seitz 2000, J. Acoust. Soc. Am. 108:1197), which is what
 * the A/V offset estimator correlates with mouth opening.
 */
export const F2_BAND_HZ = [800, 2500] as const;

export interface SpeechEnvelopeOptions {
  /** Seconds decoded from the start. Default: all. */
  maxSec?: number;
  /** Band-pass before the energy, Hz. Default VOICE_BAND_HZ. */
  bandHz?: readonly [number, number];
  signal?: AbortSignal;
}

/**
 * Envelope (dB, one value per 10 ms) of the first `maxSec` seconds of `path`'s audio.
 * Sample 0 is time 0 of the file's timeline: an audio stream that starts after the video (edit
 * list, muxer offset) is padded with silence at the front, so envelope and video frames share
 * one origin.
 */
export async function speechEnvelope(
  path: string,
  { maxSec, bandHz = VOICE_BAND_HZ, signal }: SpeechEnvelopeOptions = {},
): Promise<Float64Array> {
  const filters = `aresample=first_pts=0,highpass=f=${bandHz[0]},lowpass=f=${bandHz[1]}`;
  const args = ['-i', path, '-vn', '-ac', '1', '-ar', String(SAMPLE_RATE_HZ), '-af', filters];
  if (maxSec) args.push('-t', String(maxSec));
  using proc = spawnFfmpeg([...args, '-f', 's16le', 'pipe:1'], signal);
  proc.child.stdin.end();
  const chunks: Buffer[] = [];
  proc.child.stdout.on('data', (c: Buffer) => chunks.push(c));
  await proc.done;
  const pcm = Buffer.concat(chunks);
  const n = Math.floor(pcm.length / 2 / HOP);
  const env = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let k = 0; k < HOP; k++) {
      const v = pcm.readInt16LE((i * HOP + k) * 2) / 32768;
      s += v * v;
    }
    env[i] = 10 * Math.log10(s / HOP + 1e-8);
  }
  return env;
}

/**
 * Pure: clamps an envelope (dB) from below at `rangeDb` under its 95th percentile, in a copy.
 * Pauses then all read as one "quiet" level: without it, digital silence (-80 dB, e.g. the
 * padding of a delayed track) against room noise (-60 dB) makes steps that no mouth shows.
 * @example floorEnvelope(env, 25)
 */
export function floorEnvelope(env: ArrayLike<number>, rangeDb = 25): Float64Array {
  const out = Float64Array.from(env);
  if (out.length === 0) return out;
  const sorted = Float64Array.from(env).sort();
  const floor = sorted[Math.min(sorted.length - 1, Math.floor(0.95 * sorted.length))] - rangeDb;
  for (let i = 0; i < out.length; i++) out[i] = Math.max(out[i], floor);
  return out;
}
