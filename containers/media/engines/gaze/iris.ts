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
 * Eyes wider than this are searched first on a grid of step ≈ width / this, then refined at
 * full resolution: the exhaustive search costs ∝ width⁴ (≈ 190 ms per 100 px eye at 720p),
 * the coarse one stays ≈ constant. Eyes under 1.5× this keep the exhaustive full-resolution search.
 */
export const COARSE_EYE_WIDTH_PX = 48;
/** Coarse optima refined at full resolution (distinct basins: eyelash shadows, lid creases). */
export const COARSE_CANDIDATES = 3;

/** Integer offsets of the disc and of the ring around it (a ring pixel: rDisc < dist ≤ rRing). */
interface DiscStencil {
  disc: Int32Array;
  ring: Int32Array;
  reach: number;
  minDisc: number;
}

function stencil(rDisc: number, rRing: number): DiscStencil {
  const reach = Math.ceil(rRing);
  const disc: number[] = [], ring: number[] = [];
  for (let dy = -reach; dy <= reach; dy++)
    for (let dx = -reach; dx <= reach; dx++) {
      const dist = Math.hypot(dx, dy);
      if (dist <= rDisc) disc.push(dx, dy);
      else if (dist <= rRing) ring.push(dx, dy);
    }
  return { disc: Int32Array.from(disc), ring: Int32Array.from(ring), reach, minDisc: Math.max(4, 0.25 * Math.PI * rDisc * rDisc) };
}

/** Mean luma of the disc minus that of its ring at (px, py) of grid L (NaN = outside the opening). */
function discScore(L: Float32Array, bw: number, bh: number, s: DiscStencil, px: number, py: number): number {
  const sum = (offsets: Int32Array): [number, number] => {
    let total = 0, n = 0;
    for (let k = 0; k < offsets.length; k += 2) {
      const x = px + offsets[k], y = py + offsets[k + 1];
      if (x < 0 || y < 0 || x >= bw || y >= bh) continue;
      const v = L[y * bw + x];
      if (v !== v) continue; // NaN: outside the opening
      total += v;
      n++;
    }
    return [total, n];
  };
  const [d, nd] = sum(s.disc);
  // Needs a visible part of the disc; a disc hidden under the lids says nothing.
  if (nd < s.minDisc) return Infinity;
  const [r, nr] = sum(s.ring);
  return d / nd - (nr ? r / nr : 255);
}

/** Box-averaged copy of L at 1/step resolution; a cell with under half its pixels inside is NaN. */
function downsampleMasked(L: Float32Array, bw: number, bh: number, step: number): { C: Float32Array; cw: number; ch: number } {
  const cw = Math.floor(bw / step), ch = Math.floor(bh / step);
  const C = new Float32Array(cw * ch);
  for (let cy = 0; cy < ch; cy++)
    for (let cx = 0; cx < cw; cx++) {
      let total = 0, n = 0;
      for (let y = cy * step; y < (cy + 1) * step; y++)
        for (let x = cx * step; x < (cx + 1) * step; x++) {
          const v = L[y * bw + x];
          if (v === v) (total += v), n++;
        }
      C[cy * cw + cx] = 2 * n >= step * step ? total / n : NaN;
    }
  return { C, cw, ch };
}

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
  // Only the lid polygon's box can be inside: most of the search box is lid and skin.
  let px0 = Infinity, py0 = Infinity, px1 = -Infinity, py1 = -Infinity;
  for (const p of eye.polygon) (px0 = Math.min(px0, p.x)), (py0 = Math.min(py0, p.y)), (px1 = Math.max(px1, p.x)), (py1 = Math.max(py1, p.y));
  const ya = Math.max(0, Math.floor(py0) - y0), yb = Math.min(bh - 1, Math.ceil(py1) - y0);
  const xa = Math.max(0, Math.floor(px0) - x0), xb = Math.min(bw - 1, Math.ceil(px1) - x0);
  for (let y = ya; y <= yb; y++)
    for (let x = xa; x <= xb; x++) {
      if (signedDistance(eye.polygon, x0 + x + 0.5, y0 + y + 0.5) > -0.5) continue;
      const i = ((y0 + y) * width + x0 + x) * channels;
      L[y * bw + x] = 0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2];
      inside++;
    }
  if (inside < 12) return eye.iris;
  const full = stencil(rDisc, rRing);

  // Full-resolution scores over the search square (+1 px border for the sub-pixel step), memoised.
  const side = 2 * search + 3, ox = cx - x0 - search - 1, oy = cy - y0 - search - 1;
  const grid = new Float64Array(side * side).fill(NaN);
  const at = (x: number, y: number) => {
    const gi = x - ox, gj = y - oy;
    if (gi < 0 || gj < 0 || gi >= side || gj >= side) return discScore(L, bw, bh, full, x, y);
    const k = gj * side + gi;
    if (grid[k] !== grid[k]) grid[k] = discScore(L, bw, bh, full, x, y);
    return grid[k];
  };
  // Where to search at full resolution: the whole square, or ± one step around the best few
  // coarse optima (one alone picked a different basin than the full search on ~10% of eyes).
  const windows: Array<{ x: number; y: number; r: number }> = [];
  const step = Math.round(eye.width / COARSE_EYE_WIDTH_PX);
  if (step >= 2) {
    const { C, cw, ch } = downsampleMasked(L, bw, bh, step);
    const coarse = stencil(rDisc / step, rRing / step);
    const ccx = Math.floor((cx - x0) / step), ccy = Math.floor((cy - y0) / step), cs = Math.ceil(search / step);
    const found: Array<{ s: number; x: number; y: number }> = [];
    for (let dy = -cs; dy <= cs; dy++)
      for (let dx = -cs; dx <= cs; dx++) {
        const s = discScore(C, cw, ch, coarse, ccx + dx, ccy + dy);
        if (Number.isFinite(s)) found.push({ s, x: ccx + dx, y: ccy + dy });
      }
    found.sort((p, q) => p.s - q.s);
    for (const c of found) {
      if (windows.length >= COARSE_CANDIDATES) break;
      const x = c.x * step + (step >> 1), y = c.y * step + (step >> 1);
      if (windows.every((w) => Math.max(Math.abs(w.x - x), Math.abs(w.y - y)) > 2 * step)) windows.push({ x, y, r: step });
    }
    if (windows.length === 0) return eye.iris;
  } else windows.push({ x: cx - x0, y: cy - y0, r: search });

  let best = Infinity, bx = cx - x0, by = cy - y0;
  for (const w of windows)
    for (let y = Math.max(w.y - w.r, cy - y0 - search); y <= Math.min(w.y + w.r, cy - y0 + search); y++)
      for (let x = Math.max(w.x - w.r, cx - x0 - search); x <= Math.min(w.x + w.r, cx - x0 + search); x++) {
        const s = at(x, y);
        if (s < best) (best = s), (bx = x), (by = y);
      }
  if (!Number.isFinite(best)) return eye.iris;
  // Parabolic sub-pixel refinement per axis.
  const refine = (m: number, c: number, p: number) => {
    const den = m - 2 * c + p;
    return Number.isFinite(den) && den > 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (m - p)) / den)) : 0;
  };
  const fx = refine(at(bx - 1, by), best, at(bx + 1, by));
  const fy = refine(at(bx, by - 1), best, at(bx, by + 1));
  return { x: x0 + bx + fx + 0.5, y: y0 + by + fy + 0.5 };
}
