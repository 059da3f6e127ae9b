/**
 * @module containers/media/engines/gaze/iris
 * Pure, classical iris locator: the darkest disc of the iris's size inside the lid opening,
 * contrasted with the ring around it, searched near the mesh's iris estimate. Human truncates
 * landmarks to whole pixels and its iris model leans toward the eye centre (on 40–50 px eyes it
 * followed a 6 px move by 0–2 px), so the editor aims with this instead, and the tests measure
 * the iris offset with it directly.
 */
import type { EyeGeometry, Xy } from './geometry.js';
import { signedDistance } from './warp.js';

/** Search radius around the mesh estimate, in eye widths. */
export const IRIS_SEARCH_PER_EYE_WIDTH = 0.15;
/** Disc radius scored, in iris radii (the dark pupil + iris core, not the limbus). */
export const DISC_IRIS_RADII = 0.8;

/**
 * Sub-pixel iris centre (px) of `eye` in an RGB(A) frame, or the mesh estimate when the
 * opening shows too few pixels to judge.
 */
export function locateIris(data: Uint8Array, width: number, height: number, channels: 3 | 4, eye: EyeGeometry): Xy {
  const rDisc = Math.max(1.5, DISC_IRIS_RADII * eye.irisRadius);
  const rRing = rDisc * 1.8;
  const search = Math.max(2, Math.round(IRIS_SEARCH_PER_EYE_WIDTH * eye.width));
  const cx = Math.round(eye.iris.x), cy = Math.round(eye.iris.y);
  const R = search + Math.ceil(rRing) + 1;
  const x0 = Math.max(0, cx - R), y0 = Math.max(0, cy - R), x1 = Math.min(width - 1, cx + R), y1 = Math.min(height - 1, cy + R);
  const bw = x1 - x0 + 1, bh = y1 - y0 + 1;
  // Luma of pixels inside the opening (1 px in from the lid line), NaN outside.
  const L = new Float32Array(bw * bh).fill(NaN);
  let inside = 0;
  for (let y = 0; y < bh; y++)
    for (let x = 0; x < bw; x++) {
      if (signedDistance(eye.polygon, x0 + x + 0.5, y0 + y + 0.5) > -0.5) continue;
      const i = ((y0 + y) * width + x0 + x) * channels;
      L[y * bw + x] = 0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2];
      inside++;
    }
  if (inside < 12) return eye.iris;
  const score = (px: number, py: number): number => {
    let d = 0, nd = 0, r = 0, nr = 0;
    const rr = Math.ceil(rRing);
    for (let y = Math.max(0, py - rr); y <= Math.min(bh - 1, py + rr); y++)
      for (let x = Math.max(0, px - rr); x <= Math.min(bw - 1, px + rr); x++) {
        const v = L[y * bw + x];
        if (Number.isNaN(v)) continue;
        const dist = Math.hypot(x - px, y - py);
        if (dist <= rDisc) (d += v), nd++;
        else if (dist <= rRing) (r += v), nr++;
      }
    // Needs a visible part of the disc; a disc hidden under the lids says nothing.
    if (nd < Math.max(4, 0.25 * Math.PI * rDisc * rDisc)) return Infinity;
    return d / nd - (nr ? r / nr : 255);
  };
  let best = Infinity, bx = cx - x0, by = cy - y0;
  const grid = new Map<string, number>();
  for (let dy = -search; dy <= search; dy++)
    for (let dx = -search; dx <= search; dx++) {
      const px = cx - x0 + dx, py = cy - y0 + dy;
      const s = score(px, py);
      grid.set(`${px},${py}`, s);
      if (s < best) (best = s), (bx = px), (by = py);
    }
  if (!Number.isFinite(best)) return eye.iris;
  // Parabolic sub-pixel refinement per axis.
  const refine = (m: number, c: number, p: number) => {
    const den = m - 2 * c + p;
    return Number.isFinite(den) && den > 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (m - p)) / den)) : 0;
  };
  const at = (x: number, y: number) => grid.get(`${x},${y}`) ?? score(x, y);
  const fx = refine(at(bx - 1, by), best, at(bx + 1, by));
  const fy = refine(at(bx, by - 1), best, at(bx, by + 1));
  return { x: x0 + bx + fx + 0.5, y: y0 + by + fy + 0.5 };
}
