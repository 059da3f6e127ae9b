/**
 * @module containers/media/engines/gaze/iris
 * Pure, classical iris locator: the darkest disc of the iris's size inside the lid opening,
 * contrasted with the ring around it, searched near the mesh's iris estimate. Human truncates
 * landmarks to whole pixels and its iris model leans toward the eye centre (on 40–50 px eyes it
 * followed a 6 px move by 0–2 px), so the editor aims with this instead, and the tests measure
 * the iris offset with it directly. Scores come from row-wise prefix sums (one step per stencil
 * row, not per pixel): per pixel, the search is too slow for every frame (docs/benchmarks.md).
 */
import type { Box } from '../frame-pipeline/yuv.js';
import type { EyeGeometry, Xy } from './geometry.js';
import { lidDistanceAt, type LidDistances } from './warp.js';

/** Search radius around the mesh estimate, in eye widths. */
export const IRIS_SEARCH_PER_EYE_WIDTH = 0.15;
/** Disc radius scored, in iris radii (the dark pupil + iris core, not the limbus). */
export const DISC_IRIS_RADII = 0.8;
/** The first pass scores every COARSE_STEP-th position of the search square. */
const COARSE_STEP = 2;

/**
 * The disc and its ring (rDisc < dist ≤ rRing) as row spans: on row dy the disc covers
 * |dx| ≤ disc[dy + reach] and disc + ring |dx| ≤ outer[dy + reach] (−1: nothing on that row).
 */
interface DiscStencil {
  disc: Int32Array;
  outer: Int32Array;
  reach: number;
  minDisc: number;
}

/**
 * `Math.hypot(dx, dy)` for 0 ≤ dx, dy < side, row dy: the stencil's distances, the same numbers,
 * without a call per offset (V8 does not inline Math.hypot; its calls were most of this
 * module's garbage). Grown on demand up to `HYPOT_TABLE_MAX_SIDE` (an eye beyond it, e.g. a
 * broken mesh's, calls Math.hypot as before).
 */
const HYPOT_TABLE_MAX_SIDE = 256;
let hypotTable = new Float64Array(0),
  hypotSide = 0;
function hypots(side: number): Float64Array {
  if (side > hypotSide) {
    hypotSide = Math.max(side, 2 * hypotSide);
    hypotTable = new Float64Array(hypotSide * hypotSide);
    for (let dy = 0; dy < hypotSide; dy++)
      for (let dx = 0; dx < hypotSide; dx++) hypotTable[dy * hypotSide + dx] = Math.hypot(dx, dy);
  }
  return hypotTable;
}

function stencil(rDisc: number, rRing: number): DiscStencil {
  const reach = Math.ceil(rRing);
  const table = reach < HYPOT_TABLE_MAX_SIDE ? hypots(reach + 1) : null,
    side = hypotSide;
  const disc = new Int32Array(2 * reach + 1).fill(-1),
    outer = new Int32Array(2 * reach + 1).fill(-1);
  for (let dy = -reach; dy <= reach; dy++)
    for (let dx = 0; dx <= reach; dx++) {
      const dist = table ? table[Math.abs(dy) * side + dx] : Math.hypot(dx, dy);
      if (dist <= rDisc) disc[dy + reach] = dx;
      if (dist <= rRing) outer[dy + reach] = dx;
    }
  return { disc, outer, reach, minDisc: Math.max(4, 0.25 * Math.PI * rDisc * rDisc) };
}

/**
 * Scratch reused from eye to eye: typed arrays made per eye and frame were most of the render's
 * external memory churn, and V8 answered it with a full collection 5–7 times a second.
 */
let sumScratch = new Float64Array(0),
  countScratch = new Int32Array(0),
  lumaScratch = new Float32Array(0),
  gridScratch = new Float64Array(0);

/** Row-wise prefix sums of a luma grid (NaN = outside the opening: counts nothing). */
interface RowSums {
  w: number;
  h: number;
  sum: Float64Array;
  count: Int32Array;
}

function rowSums(L: Float32Array, w: number, h: number): RowSums {
  const cells = (w + 1) * h;
  if (sumScratch.length < cells)
    ((sumScratch = new Float64Array(cells)), (countScratch = new Int32Array(cells)));
  const sum = sumScratch,
    count = countScratch;
  // Column 0 of each row is the empty prefix.
  for (let y = 0; y < h; y++) ((sum[y * (w + 1)] = 0), (count[y * (w + 1)] = 0));
  for (let y = 0; y < h; y++) {
    let s = 0,
      n = 0;
    for (let x = 0; x < w; x++) {
      const v = L[y * w + x];
      if (v === v) ((s += v), n++);
      sum[y * (w + 1) + x + 1] = s;
      count[y * (w + 1) + x + 1] = n;
    }
  }
  return { w, h, sum, count };
}

/** Mean luma of the disc minus that of its ring at (px, py); Infinity when too little disc shows. */
function discScore(g: RowSums, s: DiscStencil, px: number, py: number): number {
  let d = 0,
    nd = 0,
    all = 0,
    nAll = 0;
  for (let dy = -s.reach; dy <= s.reach; dy++) {
    const y = py + dy;
    if (y < 0 || y >= g.h) continue;
    const row = y * (g.w + 1);
    const o = s.outer[dy + s.reach];
    if (o < 0) continue;
    let xa = Math.max(0, px - o),
      xb = Math.min(g.w - 1, px + o);
    if (xb >= xa)
      ((all += g.sum[row + xb + 1] - g.sum[row + xa]), (nAll += g.count[row + xb + 1] - g.count[row + xa]));
    const h = s.disc[dy + s.reach];
    if (h < 0) continue;
    ((xa = Math.max(0, px - h)), (xb = Math.min(g.w - 1, px + h)));
    if (xb >= xa)
      ((d += g.sum[row + xb + 1] - g.sum[row + xa]), (nd += g.count[row + xb + 1] - g.count[row + xa]));
  }
  // Needs a visible part of the disc; a disc hidden under the lids says nothing.
  if (nd < s.minDisc) return Infinity;
  const r = all - d,
    nr = nAll - nd;
  return d / nd - (nr ? r / nr : 255);
}

/** Disc and ring radii and the search radius of `eye`, px. */
function searchGeometry(eye: EyeGeometry) {
  const rDisc = Math.max(1.5, DISC_IRIS_RADII * eye.irisRadius);
  const rRing = rDisc * 1.8;
  const search = Math.max(2, Math.round(IRIS_SEARCH_PER_EYE_WIDTH * eye.width));
  const cx = Math.round(eye.iris.x),
    cy = Math.round(eye.iris.y);
  const R = search + Math.ceil(rRing) + 1;
  return { rDisc, rRing, search, cx, cy, R };
}

/** The pixels `locateIris` reads (before clamping to the frame). */
export function irisSearchBox(eye: EyeGeometry): Box {
  const { cx, cy, R } = searchGeometry(eye);
  return { x0: cx - R, y0: cy - R, x1: cx + R, y1: cy + R };
}

/**
 * Sub-pixel iris centre (px) of `eye` in an RGB(A) frame, or the mesh estimate when the
 * opening shows too few pixels to judge.
 */
export function locateIris(
  data: Uint8Array,
  width: number,
  height: number,
  channels: 3 | 4,
  eye: EyeGeometry,
  field?: LidDistances,
): Xy {
  const { rDisc, rRing, search, cx, cy, R } = searchGeometry(eye);
  const x0 = Math.max(0, cx - R),
    y0 = Math.max(0, cy - R),
    x1 = Math.min(width - 1, cx + R),
    y1 = Math.min(height - 1, cy + R);
  const bw = x1 - x0 + 1,
    bh = y1 - y0 + 1;
  // Luma of pixels inside the opening (1 px in from the lid line), NaN outside.
  if (lumaScratch.length < bw * bh) lumaScratch = new Float32Array(bw * bh);
  const L = lumaScratch.subarray(0, bw * bh).fill(NaN);
  let inside = 0;
  // Only the lid polygon's box can be inside: most of the search box is lid and skin.
  let px0 = Infinity,
    py0 = Infinity,
    px1 = -Infinity,
    py1 = -Infinity;
  for (const p of eye.polygon)
    ((px0 = Math.min(px0, p.x)),
      (py0 = Math.min(py0, p.y)),
      (px1 = Math.max(px1, p.x)),
      (py1 = Math.max(py1, p.y)));
  const ya = Math.max(0, Math.floor(py0) - y0),
    yb = Math.min(bh - 1, Math.ceil(py1) - y0);
  const xa = Math.max(0, Math.floor(px0) - x0),
    xb = Math.min(bw - 1, Math.ceil(px1) - x0);
  for (let y = ya; y <= yb; y++)
    for (let x = xa; x <= xb; x++) {
      if (lidDistanceAt(field, eye.polygon, x0 + x, y0 + y) > -0.5) continue;
      const i = ((y0 + y) * width + x0 + x) * channels;
      L[y * bw + x] = 0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2];
      inside++;
    }
  if (inside < 12) return eye.iris;
  const full = stencil(rDisc, rRing);
  const sums = rowSums(L, bw, bh);

  // Full-resolution scores over the search square (+1 px border for the sub-pixel step), memoised.
  const side = 2 * search + 3,
    ox = cx - x0 - search - 1,
    oy = cy - y0 - search - 1;
  if (gridScratch.length < side * side) gridScratch = new Float64Array(side * side);
  const grid = gridScratch.subarray(0, side * side).fill(NaN);
  const at = (x: number, y: number) => {
    const gi = x - ox,
      gj = y - oy;
    if (gi < 0 || gj < 0 || gi >= side || gj >= side) return discScore(sums, full, x, y);
    const k = gj * side + gi;
    if (grid[k] !== grid[k]) grid[k] = discScore(sums, full, x, y);
    return grid[k];
  };
  // Coarse to fine: every COARSE_STEP-th position of the search square, then every position
  // around the best of those. The disc is several pixels wide, so its score is smooth at that
  // scale; this scores ≈ 4× fewer positions than all of them (the eye editor's largest cost).
  let best = Infinity,
    bx = cx - x0,
    by = cy - y0;
  const scan = (fromX: number, toX: number, fromY: number, toY: number, step: number) => {
    for (let y = fromY; y <= toY; y += step)
      for (let x = fromX; x <= toX; x += step) {
        const s = at(x, y);
        if (s < best) ((best = s), (bx = x), (by = y));
      }
  };
  const [sx0, sy0] = [cx - x0 - search, cy - y0 - search];
  scan(sx0, sx0 + 2 * search, sy0, sy0 + 2 * search, COARSE_STEP);
  if (!Number.isFinite(best)) return eye.iris;
  const clampX = (x: number) => Math.max(sx0, Math.min(sx0 + 2 * search, x)),
    clampY = (y: number) => Math.max(sy0, Math.min(sy0 + 2 * search, y));
  scan(
    clampX(bx - COARSE_STEP),
    clampX(bx + COARSE_STEP),
    clampY(by - COARSE_STEP),
    clampY(by + COARSE_STEP),
    1,
  );
  // Parabolic sub-pixel refinement per axis.
  const refine = (m: number, c: number, p: number) => {
    const den = m - 2 * c + p;
    return Number.isFinite(den) && den > 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (m - p)) / den)) : 0;
  };
  const fx = refine(at(bx - 1, by), best, at(bx + 1, by));
  const fy = refine(at(bx, by - 1), best, at(bx, by + 1));
  return { x: x0 + bx + fx + 0.5, y: y0 + by + fy + 0.5 };
}
