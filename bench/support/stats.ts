/**
 * @module bench/support/stats
 * Summaries of repeated measurements: the median and the range.
 */
export interface Spread {
  median: number;
  min: number;
  max: number;
  runs: number;
}

export function spread(values: number[]): Spread {
  if (values.length === 0) return { median: NaN, min: NaN, max: NaN, runs: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], runs: sorted.length };
}

/** `12.3` for one run, `12.3 (11.9–13.0)` for several. */
export function formatSpread(s: Spread, digits = 1): string {
  // No runs, or no figure to compare with (a ratio to a floor that was not timed): a dash, not NaN.
  if (s.runs === 0 || !Number.isFinite(s.median)) return '–';
  const f = (v: number) => v.toFixed(digits);
  return s.runs === 1 ? f(s.median) : `${f(s.median)} (${f(s.min)}–${f(s.max)})`;
}
