/**
 * @module containers/media/engines/mouth/similarity
 * Pure 2D similarity transforms (rotation + uniform scale + translation): the least-squares fit
 * between two landmark sets (Umeyama without reflection), application and inverse. A mouth
 * patch from another frame is placed on the current face with the transform that maps its
 * anchor landmarks onto the current frame's.
 */

export type Xy = { x: number; y: number };

/** p' = [a −b; b a]·p + (tx, ty): scale √(a²+b²), angle atan2(b, a). */
export interface Similarity {
  a: number;
  b: number;
  tx: number;
  ty: number;
}

export const IDENTITY: Similarity = { a: 1, b: 0, tx: 0, ty: 0 };

/**
 * Least-squares similarity mapping `from[i]` onto `to[i]` (same length, ≥ 2 points).
 * @example fitSimilarity([{x:0,y:0},{x:1,y:0}], [{x:1,y:1},{x:3,y:1}]) // scale 2, shift (1,1)
 */
export function fitSimilarity(from: Xy[], to: Xy[]): Similarity {
  const n = Math.min(from.length, to.length);
  if (n < 2) throw new Error('fitSimilarity: needs at least 2 point pairs');
  let fx = 0,
    fy = 0,
    gx = 0,
    gy = 0;
  for (let i = 0; i < n; i++) {
    fx += from[i].x;
    fy += from[i].y;
    gx += to[i].x;
    gy += to[i].y;
  }
  fx /= n;
  fy /= n;
  gx /= n;
  gy /= n;
  // Closed form for complex numbers: (a + ib) = Σ conj(p)·q / Σ |p|², with p, q centred.
  let sxx = 0,
    re = 0,
    im = 0;
  for (let i = 0; i < n; i++) {
    const px = from[i].x - fx,
      py = from[i].y - fy,
      qx = to[i].x - gx,
      qy = to[i].y - gy;
    sxx += px * px + py * py;
    re += px * qx + py * qy;
    im += px * qy - py * qx;
  }
  if (!(sxx > 0)) return { a: 1, b: 0, tx: gx - fx, ty: gy - fy };
  const a = re / sxx,
    b = im / sxx;
  return { a, b, tx: gx - (a * fx - b * fy), ty: gy - (b * fx + a * fy) };
}

export const applySimilarity = (t: Similarity, p: Xy): Xy => ({
  x: t.a * p.x - t.b * p.y + t.tx,
  y: t.b * p.x + t.a * p.y + t.ty,
});

export function invertSimilarity(t: Similarity): Similarity {
  const d = t.a * t.a + t.b * t.b;
  if (!(d > 0)) throw new Error('invertSimilarity: degenerate transform');
  const a = t.a / d,
    b = -t.b / d;
  return { a, b, tx: -(a * t.tx - b * t.ty), ty: -(b * t.tx + a * t.ty) };
}

export const similarityScale = (t: Similarity) => Math.hypot(t.a, t.b);
