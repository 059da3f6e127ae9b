/**
 * @module bench/speech/sets-build/audio
 * The set builders' audio through the ffmpeg CLI: decode source bytes to 16 kHz mono PCM, write
 * PCM as 16 kHz mono 16-bit FLAC, find silences; and the two measures they share (RMS,
 * correlation). ffmpeg runs synchronously, so there is never more than one process at a time: the
 * builders share their machine with benchmarks.
 */
import { spawnSync } from 'node:child_process';

/** The sets' sample rate. */
export const RATE = 16000;

/** Seconds to the nearest sample index. */
export const at = (t: number): number => Math.round(t * RATE);

function ffmpeg(args: string[], input?: Buffer): { stdout: Buffer; stderr: string } {
  const r = spawnSync('ffmpeg', ['-hide_banner', '-nostdin', '-threads', '1', ...args], {
    input,
    maxBuffer: 1 << 30,
    stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  // EPIPE: ffmpeg may stop reading its input once it has what it needs (the end of a cut)
  if (r.error && (r.error as NodeJS.ErrnoException).code !== 'EPIPE') throw r.error;
  if (r.status !== 0) throw new Error(`ffmpeg ${args.join(' ')}: ${r.stderr.toString()}`);
  return { stdout: r.stdout, stderr: r.stderr.toString() };
}

export interface DecodeOptions {
  /** ffmpeg options that describe a headerless input, e.g. `['-f', 'mulaw', '-ar', '8000']`. */
  format?: string[];
  /** A cut in source seconds, made before resampling so it is exact at the source's own rate. */
  cut?: { start: number; end: number };
}

function decodeBytes(src: Buffer | string, pcm: 's16le' | 'f32le', o: DecodeOptions): Buffer {
  const filters: string[] = [];
  if (o.cut)
    filters.push(`atrim=start=${o.cut.start.toFixed(6)}:end=${o.cut.end.toFixed(6)}`, 'asetpts=PTS-STARTPTS');
  filters.push(`aresample=${RATE}`);
  const file = typeof src === 'string';
  const input = [...(o.format ?? []), '-i', file ? src : 'pipe:0'];
  const output = ['-af', filters.join(','), '-ac', '1', '-ar', String(RATE), '-f', pcm, 'pipe:1'];
  return ffmpeg(['-v', 'error', ...input, ...output], file ? undefined : src).stdout;
}

/** Source bytes or a file (any format ffmpeg reads) to 16 kHz mono 16-bit PCM. */
export function decodeS16(src: Buffer | string, o: DecodeOptions = {}): Int16Array {
  const out = decodeBytes(src, 's16le', o);
  return new Int16Array(out.buffer.slice(out.byteOffset, out.byteOffset + (out.byteLength & ~1)));
}

/**
 * Source bytes or a file to 16 kHz mono float PCM (full scale ±1): for audio that is scaled and
 * mixed before it is written, so the source is quantised to 16 bits once, at the end.
 */
export function decodeF32(src: Buffer | string, o: DecodeOptions = {}): Float32Array {
  const out = decodeBytes(src, 'f32le', o);
  return new Float32Array(out.buffer.slice(out.byteOffset, out.byteOffset + (out.byteLength & ~3)));
}

/** 16 kHz mono PCM to a 16-bit FLAC file (float samples rounded and clipped to 16 bits). */
export function writeFlac(pcm: Int16Array | Float32Array, path: string): void {
  let s16 = pcm;
  if (pcm instanceof Float32Array) {
    s16 = new Int16Array(pcm.length);
    for (let i = 0; i < pcm.length; i++)
      s16[i] = Math.max(-32768, Math.min(32767, Math.round(pcm[i] * 32768)));
  }
  const input = ['-f', 's16le', '-ar', String(RATE), '-ac', '1', '-i', 'pipe:0'];
  const output = ['-c:a', 'flac', '-sample_fmt', 's16', '-map_metadata', '-1', '-y', path];
  ffmpeg(['-v', 'error', ...input, ...output], Buffer.from(s16.buffer, s16.byteOffset, s16.byteLength));
}

/**
 * `ffmpeg silencedetect` on source bytes: [start, end] seconds of each silence of at least
 * `minSec` under `noise` (e.g. `-30dB`); a silence still open at the end ends at `duration`.
 */
export function silences(
  src: Buffer,
  noise: string,
  minSec: number,
  duration: number,
): Array<{ start: number; end: number }> {
  const args = [
    '-v',
    'info',
    '-i',
    'pipe:0',
    '-af',
    `silencedetect=noise=${noise}:d=${minSec}`,
    '-f',
    'null',
    '-',
  ];
  const out: Array<{ start: number; end: number }> = [];
  for (const line of ffmpeg(args, src).stderr.split('\n')) {
    const s = /silence_start: (-?[\d.e+-]+)/.exec(line);
    const e = /silence_end: ([\d.e+-]+)/.exec(line);
    if (s) out.push({ start: Math.max(0, Number(s[1])), end: NaN });
    if (e && out.length) out[out.length - 1].end = Number(e[1]);
  }
  for (const s of out) if (!Number.isFinite(s.end)) s.end = duration;
  return out;
}

/** RMS of `x[a..b)`. */
export function rms(x: ArrayLike<number>, a = 0, b = x.length): number {
  let s = 0;
  for (let i = a; i < b; i++) s += x[i] * x[i];
  return Math.sqrt(s / Math.max(1, b - a));
}

/** Normalised correlation of two decodes over their common length (0 when either is silent). */
export function correlation(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = Math.min(a.length, b.length);
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < n; i++) {
    ab += a[i] * b[i];
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  return aa && bb ? ab / Math.sqrt(aa * bb) : 0;
}
