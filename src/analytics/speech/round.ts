/**
 * @module analytics/speech/round
 * Output rounding: results are read by people and compared in tests, so numbers carry only
 * the precision they have (times to the millisecond, scores to 1e-4).
 */

/** Rounds to `digits` decimals; non-finite input becomes 0 so no NaN/Infinity reaches JSON. */
export function round(x: number, digits: number): number {
  if (!Number.isFinite(x)) return 0;
  const f = 10 ** digits;
  const r = Math.round(x * f) / f;
  return Object.is(r, -0) ? 0 : r;
}

/** Times in seconds: 3 decimals (1 ms). */
export const roundTime = (x: number): number => round(x, 3);
