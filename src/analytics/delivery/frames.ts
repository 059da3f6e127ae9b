/**
 * @module analytics/delivery/frames
 * Which frames of a prosody track lie inside speech, and small statistics helpers.
 */
import type { ProsodyTrack, TimeSegment } from '../../contract/media';

/**
 * A per-frame mask: true where the frame's centre lies inside one of `spans`. Without spans
 * (or an empty list) every frame is inside.
 */
export function spanMask(track: ProsodyTrack, spans?: readonly TimeSegment[]): boolean[] {
  const n = track.energy_db.length;
  if (!spans || spans.length === 0) return new Array<boolean>(n).fill(true);
  const mask = new Array<boolean>(n).fill(false);
  for (const s of spans) {
    if (!(s.end > s.start)) continue;
    const a = Math.max(0, Math.ceil(s.start / track.frame_sec - 0.5));
    const b = Math.min(n - 1, Math.floor(s.end / track.frame_sec - 0.5));
    for (let i = a; i <= b; i++) mask[i] = true;
  }
  return mask;
}

/** The p-quantile (0–1) of sorted values, linear interpolation; NaN when empty. */
export function quantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const x = Math.min(1, Math.max(0, p)) * (sorted.length - 1);
  const lo = Math.floor(x);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (x - lo);
}

/** Population standard deviation; NaN when empty. */
export function stdDev(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length);
}

/** `x` rounded to `digits` decimals, or null when it is not finite. */
export function roundOrNull(x: number | null | undefined, digits: number): number | null {
  if (x === null || x === undefined || !Number.isFinite(x)) return null;
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
