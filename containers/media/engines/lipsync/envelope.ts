/**
 * @module containers/media/engines/lipsync/envelope
 * Speech energy envelope of a media file: ffmpeg decodes to 16 kHz mono, band-passed to the
 * voice band (so hum and hiss do not move the envelope), then RMS in 10 ms hops, in dB.
 */
import { spawnFfmpeg } from '../../src/ffmpeg.js';

export const ENVELOPE_HZ = 100;
const SAMPLE_RATE_HZ = 16_000;
const HOP = SAMPLE_RATE_HZ / ENVELOPE_HZ;

/** Envelope (dB, one value per 10 ms) of the first `maxSec` seconds of `path`'s audio. */
export async function speechEnvelope(path: string, { maxSec, signal }: { maxSec?: number; signal?: AbortSignal } = {}): Promise<Float64Array> {
  const args = ['-i', path, '-vn', '-ac', '1', '-ar', String(SAMPLE_RATE_HZ), '-af', 'highpass=f=200,lowpass=f=3500'];
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
