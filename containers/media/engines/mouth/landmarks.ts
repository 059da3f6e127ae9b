/**
 * @module containers/media/engines/mouth/landmarks
 * Pure: the face-mesh points the mouth editor keeps per frame, and the blend ellipse they
 * define. Anchors are points that move with the skull and upper jaw, not with the lips (nose
 * base, subnasal, mouth corners), so a patch aligned on them keeps its own lip shape instead
 * of being stretched onto the current one.
 */
import type { MeshPoint } from '../face-tracking/face-track.js';
import { mouthOpenness } from '../face-tracking/face-track.js';
import type { Xy } from './similarity.js';

/** Nose base (2), nose wings (98, 327), subnasal (164), outer mouth corners (61, 291). */
export const ANCHOR_IDS = [2, 98, 327, 164, 61, 291] as const;
/** Outer lip contour (MediaPipe canonical mesh), upper lip corner to corner then lower lip. */
export const OUTER_LIP_IDS = [
  61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291, 375, 321, 405, 314, 17, 84, 181, 91, 146,
] as const;
const KEPT_IDS = [...ANCHOR_IDS, ...OUTER_LIP_IDS];
/** Floats per frame in a landmark record: x, y per kept point, then the openness. */
export const RECORD_LEN = KEPT_IDS.length * 2 + 1;

/** The kept points of a 468/478-point mesh (scaled by `scale`) + openness, as one flat record. */
export function mouthRecord(mesh: MeshPoint[], scale = 1): Float32Array {
  const r = new Float32Array(RECORD_LEN);
  KEPT_IDS.forEach((id, i) => {
    r[2 * i] = mesh[id][0] * scale;
    r[2 * i + 1] = mesh[id][1] * scale;
  });
  r[RECORD_LEN - 1] = mouthOpenness(mesh);
  return r;
}

export const recordOpenness = (r: Float32Array) => r[RECORD_LEN - 1];
const points = (r: Float32Array, from: number, count: number): Xy[] =>
  Array.from({ length: count }, (_, i) => ({ x: r[2 * (from + i)], y: r[2 * (from + i) + 1] }));
export const anchors = (r: Float32Array) => points(r, 0, ANCHOR_IDS.length);
export const outerLips = (r: Float32Array) => points(r, ANCHOR_IDS.length, OUTER_LIP_IDS.length);

/** Linear interpolation of records (keyframe landmarks between meshes). */
export function lerpRecord(a: Float32Array, b: Float32Array, w: number): Float32Array {
  const r = new Float32Array(RECORD_LEN);
  for (let i = 0; i < RECORD_LEN; i++) r[i] = a[i] + (b[i] - a[i]) * w;
  return r;
}

export interface Ellipse {
  center: Xy;
  /** Unit vector along the mouth (corner to corner); the minor axis is its perpendicular. */
  axis: Xy;
  /** Semi-axes along `axis` and across it, px. */
  a: number;
  b: number;
}

/** Margins around the lips, in mouth widths: the blend must swallow both lip outlines whole. */
export const ELLIPSE_MARGIN_ALONG = 0.2;
export const ELLIPSE_MARGIN_ACROSS = 0.24;

/**
 * The smallest mouth-aligned ellipse (plus margins) holding every point of `lipSets`: the
 * current frame's lips and the placed patch's lips, so neither outline survives the blend.
 */
export function mouthEllipse(corners: [Xy, Xy], lipSets: Xy[][]): Ellipse {
  const [l, r] = corners;
  const width = Math.hypot(r.x - l.x, r.y - l.y) || 1;
  const axis = { x: (r.x - l.x) / width, y: (r.y - l.y) / width };
  const mid = { x: (l.x + r.x) / 2, y: (l.y + r.y) / 2 };
  let u0 = Infinity,
    u1 = -Infinity,
    v0 = Infinity,
    v1 = -Infinity;
  for (const set of lipSets)
    for (const p of set) {
      const dx = p.x - mid.x,
        dy = p.y - mid.y;
      const u = dx * axis.x + dy * axis.y,
        v = -dx * axis.y + dy * axis.x;
      u0 = Math.min(u0, u);
      u1 = Math.max(u1, u);
      v0 = Math.min(v0, v);
      v1 = Math.max(v1, v);
    }
  const cu = (u0 + u1) / 2,
    cv = (v0 + v1) / 2;
  return {
    center: { x: mid.x + cu * axis.x - cv * axis.y, y: mid.y + cu * axis.y + cv * axis.x },
    axis,
    a: (u1 - u0) / 2 + ELLIPSE_MARGIN_ALONG * width,
    b: (v1 - v0) / 2 + ELLIPSE_MARGIN_ACROSS * width,
  };
}
