/**
 * @module
 * Test helpers over the Node-side `MEDIA` service (see media-service.ts).
 */
import { env } from 'cloudflare:workers';

/** Bytes of a clip from ../shared/media (or a generated `gen/…` clip). */
export async function mediaBytes(name: string): Promise<Uint8Array> {
  const response = await env.MEDIA.fetch(`http://media/file/${name}`);
  if (!response.ok) throw new Error(`MEDIA /file/${name}: ${response.status} ${await response.text()}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** Native ffmpeg's 16 kHz mono s16 decode of the same clip. */
export async function nativePcm(name: string): Promise<Int16Array> {
  const response = await env.MEDIA.fetch(`http://media/native/${name}`);
  if (!response.ok) throw new Error(`MEDIA /native/${name}: ${response.status} ${await response.text()}`);
  return new Int16Array(await response.arrayBuffer());
}

/** Real wall time, workerd's CPU time and resident memory (workerd's own clock stands still while code runs). */
export async function clock(): Promise<{ nowMs: number; cpuMs: number; rssBytes: number }> {
  return (await env.MEDIA.fetch('http://media/clock')).json();
}

/** Runs `fn` and returns its result with the real elapsed time and workerd's CPU time, in ms. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ result: T; ms: number; cpuMs: number }> {
  const start = await clock();
  const result = await fn();
  const end = await clock();
  return { result, ms: end.nowMs - start.nowMs, cpuMs: end.cpuMs - start.cpuMs };
}

/** Pearson correlation of two equally long sample arrays. */
export function correlation(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = Math.min(a.length, b.length);
  let sa = 0,
    sb = 0,
    saa = 0,
    sbb = 0,
    sab = 0;
  for (let i = 0; i < n; i++) {
    const x = a[i],
      y = b[i];
    sa += x;
    sb += y;
    saa += x * x;
    sbb += y * y;
    sab += x * y;
  }
  const cov = sab - (sa * sb) / n;
  return cov / Math.sqrt((saa - (sa * sa) / n) * (sbb - (sb * sb) / n));
}

/** Largest absolute sample difference over the common length. */
export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let max = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

/** Root-mean-square of samples. */
export function rms(samples: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i] * samples[i];
  return Math.sqrt(sum / Math.max(1, samples.length));
}
