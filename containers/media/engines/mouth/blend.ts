/**
 * @module containers/media/engines/mouth/blend
 * Pixel work: a banked mouth patch, placed by a similarity transform, blended into a frame
 * through a feathered ellipse. Two things keep the seam invisible: the feather (full patch
 * inside `FEATHER_START` of the ellipse radius, smooth to the untouched frame at its edge) and
 * a per-channel offset that matches the patch's mean colour to the frame's in the feather ring
 * (skin brightness drifts between frames and a patch from another moment shows it).
 */
import type { Box } from '../frame-pipeline/yuv.js';
import type { Ellipse } from './landmarks.js';
import { invertSimilarity, type Similarity } from './similarity.js';

/** Normalised ellipse radius where the feather begins (patch weight 1 inside). */
export const FEATHER_START = 0.62;
/** Largest colour offset applied, per channel (a bigger gap means a bad match, not lighting). */
export const MAX_COLOR_OFFSET = 24;

/** An RGB crop of a source frame at (x0, y0). */
export interface Patch {
  x0: number;
  y0: number;
  w: number;
  h: number;
  rgb: Uint8Array;
}

/** Cuts the RGB crop [x0, x0+w) × [y0, y0+h) (clamped to the frame) out of an RGB(A) frame. */
export function cutPatch(
  data: Uint8Array,
  width: number,
  height: number,
  channels: 3 | 4,
  x0: number,
  y0: number,
  w: number,
  h: number,
): Patch {
  const xa = Math.max(0, Math.floor(x0)),
    ya = Math.max(0, Math.floor(y0));
  const xb = Math.min(width, Math.ceil(x0 + w)),
    yb = Math.min(height, Math.ceil(y0 + h));
  const pw = Math.max(0, xb - xa),
    ph = Math.max(0, yb - ya);
  const rgb = new Uint8Array(pw * ph * 3);
  for (let y = 0; y < ph; y++)
    for (let x = 0; x < pw; x++) {
      const i = ((ya + y) * width + xa + x) * channels,
        o = (y * pw + x) * 3;
      rgb[o] = data[i];
      rgb[o + 1] = data[i + 1];
      rgb[o + 2] = data[i + 2];
    }
  return { x0: xa, y0: ya, w: pw, h: ph, rgb };
}

const clamp255 = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : v);

/** The pixels `blendPatch` reads and writes: the rotated ellipse's bounding box, clamped. */
export function ellipseBox({ center, axis, a, b }: Ellipse, width: number, height: number): Box {
  const ex = Math.hypot(a * axis.x, b * axis.y),
    ey = Math.hypot(a * axis.y, b * axis.x);
  return {
    x0: Math.max(0, Math.floor(center.x - ex)),
    x1: Math.min(width - 1, Math.ceil(center.x + ex)),
    y0: Math.max(0, Math.floor(center.y - ey)),
    y1: Math.min(height - 1, Math.ceil(center.y + ey)),
  };
}

/** Rows of the box: the first and last column that may lie inside the ellipse (reused buffers). */
let spanStart = new Int32Array(0),
  spanEnd = new Int32Array(0);
/** Per-pixel weight and patch sample of the box, reused across calls (grown as needed). */
let weightScratch = new Float32Array(0),
  sampleScratch = new Float32Array(0);
/** Inside this squared radius the weight is exactly 1 (FEATHER_START² = 0.3844, with a margin). */
const INNER_R2 = 0.38;
const FEATHER_SPAN = 1 - FEATHER_START;

/**
 * Blends `patch` (in source-frame pixels; `toFrame` maps them into this frame) into the RGB of
 * `data` inside `ellipse`. Alpha is kept. Returns the number of pixels changed.
 */
export function blendPatch(
  data: Uint8Array,
  width: number,
  height: number,
  channels: 3 | 4,
  patch: Patch,
  toFrame: Similarity,
  ellipse: Ellipse,
): number {
  const inv = invertSimilarity(toFrame);
  const { center, axis, a, b } = ellipse;
  if (!(a > 1 && b > 1) || patch.w < 2 || patch.h < 2) return 0;
  const { x0, x1, y0, y1 } = ellipseBox(ellipse, width, height);
  if (x1 <= x0 || y1 <= y0) return 0;
  const bw = x1 - x0 + 1,
    bh = y1 - y0 + 1;
  if (weightScratch.length < bw * bh) {
    weightScratch = new Float32Array(bw * bh);
    sampleScratch = new Float32Array(bw * bh * 3);
  }
  if (spanStart.length < bh) {
    spanStart = new Int32Array(bh);
    spanEnd = new Int32Array(bh);
  }
  const weight = weightScratch,
    sample = sampleScratch;
  // Pass 1: weight and patch sample per pixel of each row's span; colour means over the feather
  // ring. Per pixel: no allocation, no division, channels unrolled (this loop and the next are the
  // mouth editor's cost). Every pixel of a span gets its weight (0 outside), so pass 2 reads no
  // stale value; the span is the row's chord of the ellipse widened by a pixel, and the exact
  // test per pixel decides, so the bytes are those of a scan of the whole box.
  let ring0 = 0,
    ring1 = 0,
    ring2 = 0,
    ringS0 = 0,
    ringS1 = 0,
    ringS2 = 0,
    ringN = 0;
  const { rgb, w: pw, h: ph } = patch;
  const ia = inv.a,
    ib = inv.b,
    itx = inv.tx - 0.5 - patch.x0,
    ity = inv.ty - 0.5 - patch.y0;
  // u, v = the pixel's coordinates along and across the ellipse, in semi-axes.
  const ux = axis.x / a,
    uy = axis.y / a,
    vx = -axis.y / b,
    vy = axis.x / b;
  // r² as a quadratic in dx for a row: A·dx² + 2·B·dx + C.
  const qa = ux * ux + vx * vx,
    qb = ux * uy + vx * vy,
    qc = uy * uy + vy * vy;
  const fxMax = pw - 1.001,
    fyMax = ph - 1.001;
  for (let y = y0; y <= y1; y++) {
    const py = y + 0.5,
      dy = py - center.y;
    const row = (y - y0) * bw - x0;
    const B = qb * dy,
      disc = B * B - qa * (qc * dy * dy - 1);
    let xs = x1 + 1,
      xe = x1;
    if (disc > -1e-9) {
      const root = Math.sqrt(Math.max(0, disc));
      xs = Math.max(x0, Math.floor(center.x + (-B - root) / qa - 0.5) - 1);
      xe = Math.min(x1, Math.ceil(center.x + (-B + root) / qa - 0.5) + 1);
    }
    spanStart[y - y0] = xs;
    spanEnd[y - y0] = xe;
    for (let x = xs; x <= xe; x++) {
      const px = x + 0.5,
        dx = px - center.x;
      const u = dx * ux + dy * uy,
        v = dx * vx + dy * vy;
      const r2 = u * u + v * v;
      const k = row + x;
      if (r2 >= 1) {
        weight[k] = 0;
        continue;
      }
      const fx = ia * px - ib * py + itx,
        fy = ib * px + ia * py + ity;
      if (fx < 0 || fy < 0 || fx > fxMax || fy > fyMax) {
        weight[k] = 0;
        continue;
      }
      const ix = fx | 0,
        iy = fy | 0,
        tx = fx - ix,
        ty = fy - iy;
      const w00 = (1 - tx) * (1 - ty),
        w10 = tx * (1 - ty),
        w01 = (1 - tx) * ty,
        w11 = tx * ty;
      const o00 = (iy * pw + ix) * 3,
        o01 = o00 + pw * 3;
      const s0 = rgb[o00] * w00 + rgb[o00 + 3] * w10 + rgb[o01] * w01 + rgb[o01 + 3] * w11,
        s1 = rgb[o00 + 1] * w00 + rgb[o00 + 4] * w10 + rgb[o01 + 1] * w01 + rgb[o01 + 4] * w11,
        s2 = rgb[o00 + 2] * w00 + rgb[o00 + 5] * w10 + rgb[o01 + 2] * w01 + rgb[o01 + 5] * w11;
      sample[k * 3] = s0;
      sample[k * 3 + 1] = s1;
      sample[k * 3 + 2] = s2;
      if (r2 <= INNER_R2) {
        weight[k] = 1;
        continue;
      }
      const r = Math.sqrt(r2);
      if (r > FEATHER_START) {
        // smoothstep(FEATHER_START, 1, r): r < 1 here, so no clamp
        const t = (r - FEATHER_START) / FEATHER_SPAN;
        weight[k] = 1 - t * t * (3 - 2 * t);
        const i = (y * width + x) * channels;
        ring0 += data[i];
        ring1 += data[i + 1];
        ring2 += data[i + 2];
        ringS0 += s0;
        ringS1 += s1;
        ringS2 += s2;
        ringN++;
      } else weight[k] = 1;
    }
  }
  const offset = (frame: number, patchSum: number) =>
    ringN ? Math.max(-MAX_COLOR_OFFSET, Math.min(MAX_COLOR_OFFSET, (frame - patchSum) / ringN)) : 0;
  const off0 = offset(ring0, ringS0),
    off1 = offset(ring1, ringS1),
    off2 = offset(ring2, ringS2);
  // Pass 2: blend, over the same spans.
  let changed = 0;
  for (let y = y0; y <= y1; y++) {
    const row = (y - y0) * bw - x0;
    const xe = spanEnd[y - y0];
    for (let x = spanStart[y - y0]; x <= xe; x++) {
      const k = row + x;
      const wgt = weight[k];
      if (wgt <= 0) continue;
      const keep = 1 - wgt;
      const i = (y * width + x) * channels;
      data[i] = Math.round(data[i] * keep + clamp255(sample[k * 3] + off0) * wgt);
      data[i + 1] = Math.round(data[i + 1] * keep + clamp255(sample[k * 3 + 1] + off1) * wgt);
      data[i + 2] = Math.round(data[i + 2] * keep + clamp255(sample[k * 3 + 2] + off2) * wgt);
      changed++;
    }
  }
  return changed;
}
