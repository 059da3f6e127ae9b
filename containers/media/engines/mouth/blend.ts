/**
 * @module containers/media/engines/mouth/blend
 * Pixel work: a banked mouth patch, placed by a similarity transform, blended into a frame
 * through a feathered ellipse. Two things keep the seam invisible: the feather (full patch
 * inside `FEATHER_START` of the ellipse radius, smooth to the untouched frame at its edge) and
 * a per-channel offset that matches the patch's mean colour to the frame's in the feather ring
 * (skin brightness drifts between frames and a patch from another moment shows it).
 */
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

const smoothstep = (e0: number, e1: number, x: number) => {
  const t = Math.max(0, Math.min(1, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
};

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
  // Bounding box of the rotated ellipse.
  const ex = Math.hypot(a * axis.x, b * axis.y),
    ey = Math.hypot(a * axis.y, b * axis.x);
  const x0 = Math.max(0, Math.floor(center.x - ex)),
    x1 = Math.min(width - 1, Math.ceil(center.x + ex));
  const y0 = Math.max(0, Math.floor(center.y - ey)),
    y1 = Math.min(height - 1, Math.ceil(center.y + ey));
  if (x1 <= x0 || y1 <= y0) return 0;
  const bw = x1 - x0 + 1,
    bh = y1 - y0 + 1;
  // Pass 1: weight and patch sample per pixel of the box; colour means over the feather ring.
  const weight = new Float32Array(bw * bh);
  const sample = new Float32Array(bw * bh * 3);
  const ring = [0, 0, 0, 0, 0, 0];
  let ringN = 0;
  const { rgb, w: pw, h: ph } = patch;
  // Per pixel: no allocation, no Math.hypot (both showed up at ~10 ms per 720p frame).
  const ia = inv.a,
    ib = inv.b,
    itx = inv.tx,
    ity = inv.ty;
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      const px = x + 0.5,
        py = y + 0.5;
      const dx = px - center.x,
        dy = py - center.y;
      const u = (dx * axis.x + dy * axis.y) / a,
        v = (-dx * axis.y + dy * axis.x) / b;
      const r2 = u * u + v * v;
      if (r2 >= 1) continue;
      const r = Math.sqrt(r2);
      const fx = ia * px - ib * py + itx - 0.5 - patch.x0,
        fy = ib * px + ia * py + ity - 0.5 - patch.y0;
      if (fx < 0 || fy < 0 || fx > pw - 1.001 || fy > ph - 1.001) continue;
      const ix = Math.floor(fx),
        iy = Math.floor(fy),
        tx = fx - ix,
        ty = fy - iy;
      const o00 = (iy * pw + ix) * 3,
        o10 = o00 + 3,
        o01 = o00 + pw * 3,
        o11 = o01 + 3;
      const k = (y - y0) * bw + (x - x0);
      weight[k] = 1 - smoothstep(FEATHER_START, 1, r);
      const i = (y * width + x) * channels;
      for (let c = 0; c < 3; c++) {
        const s =
          (rgb[o00 + c] * (1 - tx) + rgb[o10 + c] * tx) * (1 - ty) +
          (rgb[o01 + c] * (1 - tx) + rgb[o11 + c] * tx) * ty;
        sample[k * 3 + c] = s;
        if (r > FEATHER_START) ((ring[c] += data[i + c]), (ring[3 + c] += s));
      }
      if (r > FEATHER_START) ringN++;
    }
  const offset = [0, 1, 2].map((c) =>
    ringN ? Math.max(-MAX_COLOR_OFFSET, Math.min(MAX_COLOR_OFFSET, (ring[c] - ring[3 + c]) / ringN)) : 0,
  );
  // Pass 2: blend.
  let changed = 0;
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      const k = (y - y0) * bw + (x - x0);
      const wgt = weight[k];
      if (wgt <= 0) continue;
      const i = (y * width + x) * channels;
      for (let c = 0; c < 3; c++) {
        const v = Math.max(0, Math.min(255, sample[k * 3 + c] + offset[c]));
        data[i + c] = Math.round(data[i + c] * (1 - wgt) + v * wgt);
      }
      changed++;
    }
  return changed;
}
