/**
 * @module containers/media/engines/mouth/blend
 * Pixel work: a banked mouth patch, placed by a similarity transform, blended into a frame
 * through a feathered ellipse. Two things keep the seam invisible: the feather (full patch
 * inside `FEATHER_START` of the ellipse radius, smooth to the untouched frame at its edge) and
 * a per-channel offset that matches the patch's mean colour to the frame's in the feather ring
 * (skin brightness drifts between frames and a patch from another moment shows it).
 * Patches and frames are yuv420p, as decoded: luma per pixel, chroma per 2×2 block (each sample
 * placed at its block's centre), so nothing is converted to RGB and back, and a pixel costs 1.5
 * samples instead of 3 (a blend in RGBA, with the conversions of its box, would be the render
 * thread's largest cost).
 */
import { planes, type Box } from '../frame-pipeline/yuv.js';
import type { Ellipse } from './landmarks.js';
import { invertSimilarity, type Similarity } from './similarity.js';

/** Normalised ellipse radius where the feather begins (patch weight 1 inside). */
export const FEATHER_START = 0.62;
/** Largest colour offset applied, per channel (a bigger gap means a bad match, not lighting). */
export const MAX_COLOR_OFFSET = 24;

/** A yuv420p crop of a source frame: luma from (x0, y0), both even, w × h (even), chroma at half. */
export interface Patch {
  x0: number;
  y0: number;
  w: number;
  h: number;
  y: Uint8Array;
  u: Uint8Array;
  v: Uint8Array;
}

/**
 * Cuts the crop [x0, x0+w) × [y0, y0+h), widened to whole chroma blocks and clamped to the
 * frame, out of a yuv420p frame (even sides).
 */
export function cutPatch(
  yuv: Uint8Array,
  width: number,
  height: number,
  x0: number,
  y0: number,
  w: number,
  h: number,
): Patch {
  const xa = Math.max(0, Math.floor(x0)) & ~1,
    ya = Math.max(0, Math.floor(y0)) & ~1;
  const xb = Math.min(width, (Math.ceil(x0 + w) + 1) & ~1),
    yb = Math.min(height, (Math.ceil(y0 + h) + 1) & ~1);
  const pw = Math.max(0, xb - xa),
    ph = Math.max(0, yb - ya);
  const { u, v, cw } = planes(width, height);
  const py = new Uint8Array(pw * ph),
    pu = new Uint8Array((pw * ph) >> 2),
    pv = new Uint8Array((pw * ph) >> 2);
  for (let y = 0; y < ph; y++) py.set(yuv.subarray((ya + y) * width + xa, (ya + y) * width + xb), y * pw);
  for (let y = 0; y < ph >> 1; y++) {
    const from = ((ya >> 1) + y) * cw + (xa >> 1);
    pu.set(yuv.subarray(u + from, u + from + (pw >> 1)), y * (pw >> 1));
    pv.set(yuv.subarray(v + from, v + from + (pw >> 1)), y * (pw >> 1));
  }
  return { x0: xa, y0: ya, w: pw, h: ph, y: py, u: pu, v: pv };
}

/** The pixels `blendPatch` reads and writes: the rotated ellipse's bounding box, clamped. */
function ellipseBox({ center, axis, a, b }: Ellipse, width: number, height: number): Box {
  const ex = Math.hypot(a * axis.x, b * axis.y),
    ey = Math.hypot(a * axis.y, b * axis.x);
  return {
    x0: Math.max(0, Math.floor(center.x - ex)),
    x1: Math.min(width - 1, Math.ceil(center.x + ex)),
    y0: Math.max(0, Math.floor(center.y - ey)),
    y1: Math.min(height - 1, Math.ceil(center.y + ey)),
  };
}

/** Per-sample weight and patch samples of one plane pass, reused across calls (grown as needed). */
let weightScratch = new Float32Array(0),
  sampleA = new Float32Array(0),
  sampleB = new Float32Array(0);
/** Each row's first and last sample that may lie inside the ellipse. */
let spanStart = new Int32Array(0),
  spanEnd = new Int32Array(0);
/** Inside this squared radius the weight is exactly 1 (FEATHER_START² = 0.3844, with a margin). */
const INNER_R2 = 0.38;
const FEATHER_SPAN = 1 - FEATHER_START;

/** One plane (or the U and V pair) of a frame and of a patch, on a grid of `step` luma pixels. */
interface PlanePass {
  /** Frame samples at `frame[offset + y * stride + x]` (and `offsetB` for the second plane). */
  offset: number;
  offsetB?: number;
  stride: number;
  rows: number;
  /** Patch planes, `pw` × `ph` samples. */
  a: Uint8Array;
  b?: Uint8Array;
  pw: number;
  ph: number;
  /** Luma pixels per sample: 1 for Y, 2 for U and V. */
  step: number;
  /** The plane's video range (limited: Y 16–235, U and V 16–240): an offset patch stays inside it. */
  max: number;
}

const VIDEO_MIN = 16;

// `blendPlane`'s helpers live here, not as closures in it: a closure made per call cost it its
// optimised code again and again ("wrong call target"), and unoptimised code boxes every double.

/** Patch sample `s` plus the colour offset, kept in the video range (a sample already outside it stays). */
function offsetSample(s: number, off: number, max: number): number {
  const v = s + off;
  return v < VIDEO_MIN ? Math.min(s, VIDEO_MIN) : v > max ? Math.max(s, max) : v;
}

/** The ring's mean frame-minus-patch difference, at most `MAX_COLOR_OFFSET` either way. */
const ringOffset = (frameSum: number, patchSum: number, n: number) =>
  n ? Math.max(-MAX_COLOR_OFFSET, Math.min(MAX_COLOR_OFFSET, (frameSum - patchSum) / n)) : 0;

/**
 * Blends `patch` (in source-frame pixels; `toFrame` maps them into this frame) into the yuv420p
 * `frame` inside `ellipse`. Returns the number of luma pixels changed.
 */
export function blendPatch(
  frame: Uint8Array,
  width: number,
  height: number,
  patch: Patch,
  toFrame: Similarity,
  ellipse: Ellipse,
): number {
  const { a, b } = ellipse;
  if (!(a > 1 && b > 1) || patch.w < 2 || patch.h < 2) return 0;
  const box = ellipseBox(ellipse, width, height);
  if (box.x1 <= box.x0 || box.y1 <= box.y0) return 0;
  const inv = invertSimilarity(toFrame);
  const { u, v, cw, ch } = planes(width, height);
  const changed = blendPlane(
    frame,
    { offset: 0, stride: width, rows: height, a: patch.y, pw: patch.w, ph: patch.h, step: 1, max: 235 },
    patch,
    inv,
    ellipse,
    box,
  );
  const chromaBox = { x0: box.x0 >> 1, y0: box.y0 >> 1, x1: box.x1 >> 1, y1: box.y1 >> 1 };
  blendPlane(
    frame,
    {
      offset: u,
      offsetB: v,
      stride: cw,
      rows: ch,
      a: patch.u,
      b: patch.v,
      pw: patch.w >> 1,
      ph: patch.h >> 1,
      step: 2,
      max: 240,
    },
    patch,
    inv,
    ellipse,
    chromaBox,
  );
  return changed;
}

/**
 * One plane pass of `blendPatch` over `box` (in the plane's samples). A sample's centre in
 * frame pixels is step·(x + ½); its patch sample is bilinear at the inverse-mapped point.
 * Pass 1: weight and patch sample per sample of each row's span, the ring's means; pass 2:
 * the blend, with the patch shifted by the ring's mean difference (clamped).
 */
function blendPlane(
  frame: Uint8Array,
  plane: PlanePass,
  patch: Patch,
  inv: Similarity,
  { center, axis, a, b }: Ellipse,
  box: Box,
): number {
  const { offset, stride, step, pw, ph, max } = plane;
  const pa = plane.a,
    pb = plane.b;
  const offB = plane.offsetB ?? 0;
  const two = pb !== undefined;
  const x0 = box.x0,
    x1 = Math.min(box.x1, stride - 1),
    y0 = box.y0,
    y1 = Math.min(box.y1, plane.rows - 1);
  if (x1 < x0 || y1 < y0 || pw < 2 || ph < 2) return 0;
  const bw = x1 - x0 + 1,
    bh = y1 - y0 + 1;
  if (weightScratch.length < bw * bh) {
    weightScratch = new Float32Array(bw * bh);
    sampleA = new Float32Array(bw * bh);
    sampleB = new Float32Array(bw * bh);
  }
  if (spanStart.length < bh) {
    spanStart = new Int32Array(bh);
    spanEnd = new Int32Array(bh);
  }
  const weight = weightScratch;
  let ringA = 0,
    ringB = 0,
    ringSA = 0,
    ringSB = 0,
    ringN = 0;
  // Patch coordinates (in its samples) of frame point (px, py): inverse map, then the grid.
  const ia = inv.a / step,
    ib = inv.b / step,
    itx = (inv.tx - patch.x0) / step - 0.5,
    ity = (inv.ty - patch.y0) / step - 0.5;
  // u, v = the point's coordinates along and across the ellipse, in semi-axes; r² as a quadratic
  // in dx for a row: qa·dx² + 2·qb·dy·dx + qc·dy².
  const ux = axis.x / a,
    uy = axis.y / a,
    vx = -axis.y / b,
    vy = axis.x / b;
  const qa = ux * ux + vx * vx,
    qb = ux * uy + vx * vy,
    qc = uy * uy + vy * vy;
  const fxMax = pw - 1.001,
    fyMax = ph - 1.001;
  for (let y = y0; y <= y1; y++) {
    const py = step * (y + 0.5),
      dy = py - center.y;
    const row = (y - y0) * bw - x0;
    const B = qb * dy,
      disc = B * B - qa * (qc * dy * dy - 1);
    let xs = x1 + 1,
      xe = x1;
    if (disc > 0) {
      // The chord in frame pixels, to samples, widened by one.
      const root = Math.sqrt(disc);
      xs = Math.max(x0, Math.floor((center.x + (-B - root) / qa) / step - 0.5) - 1);
      xe = Math.min(x1, Math.ceil((center.x + (-B + root) / qa) / step - 0.5) + 1);
    }
    spanStart[y - y0] = xs;
    spanEnd[y - y0] = xe;
    for (let x = xs; x <= xe; x++) {
      const px = step * (x + 0.5),
        dx = px - center.x;
      const k = row + x;
      const u = dx * ux + dy * uy,
        v = dx * vx + dy * vy;
      const r2 = u * u + v * v;
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
      const o00 = iy * pw + ix,
        o01 = o00 + pw;
      const sa = pa[o00] * w00 + pa[o00 + 1] * w10 + pa[o01] * w01 + pa[o01 + 1] * w11;
      sampleA[k] = sa;
      let sb = 0;
      if (two) {
        sb = pb[o00] * w00 + pb[o00 + 1] * w10 + pb[o01] * w01 + pb[o01 + 1] * w11;
        sampleB[k] = sb;
      }
      if (r2 <= INNER_R2) {
        weight[k] = 1;
        continue;
      }
      const r = Math.sqrt(r2);
      if (r <= FEATHER_START) {
        weight[k] = 1;
        continue;
      }
      // smoothstep(FEATHER_START, 1, r): r < 1 here, so no clamp
      const t = (r - FEATHER_START) / FEATHER_SPAN;
      weight[k] = 1 - t * t * (3 - 2 * t);
      const i = y * stride + x;
      ringA += frame[offset + i];
      ringSA += sa;
      if (two) {
        ringB += frame[offB + i];
        ringSB += sb;
      }
      ringN++;
    }
  }
  const offA = ringOffset(ringA, ringSA, ringN),
    offBShift = ringOffset(ringB, ringSB, ringN);
  // Pass 2: blend, over the same spans. Values are ≥ 0, so `(v + 0.5) | 0` rounds them, as an
  // int32, cheaper than storing Math.round's float into the bytes.
  let changed = 0;
  for (let y = y0; y <= y1; y++) {
    const row = (y - y0) * bw - x0;
    const xe = spanEnd[y - y0];
    for (let x = spanStart[y - y0]; x <= xe; x++) {
      const k = row + x;
      const wgt = weight[k];
      if (wgt <= 0) continue;
      const keep = 1 - wgt;
      const i = y * stride + x;
      frame[offset + i] = (frame[offset + i] * keep + offsetSample(sampleA[k], offA, max) * wgt + 0.5) | 0;
      if (two)
        frame[offB + i] = (frame[offB + i] * keep + offsetSample(sampleB[k], offBShift, max) * wgt + 0.5) | 0;
      changed++;
    }
  }
  return changed;
}
