/**
 * @module analytics/visual/math
 * Small numeric helpers shared by the visual modules: 2-D geometry on landmark points,
 * robust statistics and output hygiene (finite, rounded numbers that zod accepts).
 */
import type { Point } from '../../contract/media.js';

/** A 2-D point in frame pixels (x right, y down). */
export interface Vec2 {
  x: number;
  y: number;
}

/** Decimal places kept in output numbers: enough for ratios, small enough for JSON. */
export const OUTPUT_DECIMALS = 4;

/** Converts a mesh/hand landmark into a 2-D point, or null when it is missing or not finite. */
export function toVec(p: Point | undefined | null): Vec2 | null {
  if (!p || !Number.isFinite(p[0]) || !Number.isFinite(p[1])) return null;
  return { x: p[0], y: p[1] };
}

export function dist(a: Vec2, b: Vec2): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

export function sub(a: Vec2, b: Vec2): Vec2 {
  return { x: a.x - b.x, y: a.y - b.y };
}

export function midpoint(a: Vec2, b: Vec2): Vec2 {
  return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
}

export function dot(a: Vec2, b: Vec2): number {
  return a.x * b.x + a.y * b.y;
}

/** Unit vector, or null for a (near) zero vector. */
export function unit(v: Vec2): Vec2 | null {
  const n = Math.hypot(v.x, v.y);
  return n > 1e-9 ? { x: v.x / n, y: v.y / n } : null;
}

export function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((s, v) => s + v, 0) / values.length;
}

/** Linear-interpolated percentile (p in 0..100) of the values; 0 for an empty list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const pos = (clamp(p, 0, 100) / 100) * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** Median of the values; 0 for an empty list. */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Most common value; ties go to the value seen first, so the result is deterministic. */
export function mode<T>(values: readonly T[]): T | undefined {
  const counts = new Map<T, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: T | undefined;
  let bestCount = 0;
  for (const [v, c] of counts) {
    if (c > bestCount) {
      best = v;
      bestCount = c;
    }
  }
  return best;
}

/** A finite number rounded to OUTPUT_DECIMALS; NaN/±Infinity become 0 (zod rejects them). */
export function finite(v: number, decimals = OUTPUT_DECIMALS): number {
  if (!Number.isFinite(v)) return 0;
  const f = 10 ** decimals;
  const r = Math.round(v * f) / f;
  return Object.is(r, -0) ? 0 : r;
}

export const RAD_TO_DEG = 180 / Math.PI;
