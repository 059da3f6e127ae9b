/** Measurements of rendered media with ffmpeg/ffprobe, shared by the render tests. */
import { execFileSync } from 'node:child_process';

/** One gray frame at `sec` of `path`, scaled to `size`² pixels. */
export function grayFrame(path: string, sec: number, size: number): Uint8Array {
  return execFileSync(
    'ffmpeg',
    [
      '-v',
      'error',
      '-ss',
      String(sec),
      '-i',
      path,
      '-frames:v',
      '1',
      '-vf',
      `scale=${size}:${size}`,
      '-pix_fmt',
      'gray',
      '-f',
      'rawvideo',
      'pipe:1',
    ],
    { maxBuffer: 1 << 26 },
  );
}

/** Variance of the 4-neighbour Laplacian inside a box given in fractions of the frame: a sharpness measure. */
export function laplacianVariance(g: Uint8Array, size: number, [x0, y0, x1, y1]: number[]): number {
  const vals: number[] = [];
  for (let y = Math.max(1, Math.floor(y0 * size)); y < Math.min(size - 1, Math.floor(y1 * size)); y++)
    for (let x = Math.max(1, Math.floor(x0 * size)); x < Math.min(size - 1, Math.floor(x1 * size)); x++) {
      const i = y * size + x;
      vals.push(g[i - 1] + g[i + 1] + g[i - size] + g[i + size] - 4 * g[i]);
    }
  const mean = vals.reduce((a, b) => a + b, 0) / vals.length;
  return vals.reduce((a, b) => a + (b - mean) ** 2, 0) / vals.length;
}

/** ffprobe's JSON of a file's format and streams. */
export function probe(path: string) {
  return JSON.parse(
    execFileSync('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', path], {
      encoding: 'utf8',
    }),
  );
}

/** Duration in seconds of the file, or of one stream of it (`stream` like `v:0`). */
export function duration(path: string, stream?: string): number {
  const entry = stream ? 'stream=duration' : 'format=duration';
  return Number(
    execFileSync(
      'ffprobe',
      [
        '-v',
        'error',
        ...(stream ? ['-select_streams', stream] : []),
        '-show_entries',
        entry,
        '-of',
        'csv=p=0',
        path,
      ],
      { encoding: 'utf8' },
    ).trim(),
  );
}

/** Level of each 10 ms frame of mono s16 samples, dBFS. */
export function frameDb(pcm: Int16Array, rateHz: number): number[] {
  const n = Math.round(rateHz / 100);
  const out: number[] = [];
  for (let i = 0; i + n <= pcm.length; i += n) {
    let sum = 0;
    for (let k = i; k < i + n; k++) sum += pcm[k] * pcm[k];
    out.push(10 * Math.log10(sum / n / 32768 ** 2 + 1e-12));
  }
  return out;
}
