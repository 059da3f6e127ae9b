/**
 * Repeated-measurement summaries (bench/support/stats).
 */
import { describe, expect, it } from 'vitest';
import { formatSpread, spread } from '../../../../bench/support/stats.js';

describe('spread', () => {
  it('should give the median of odd and even counts and the range', () => {
    expect(spread([3, 1, 2])).toEqual({ median: 2, min: 1, max: 3, runs: 3 });
    expect(spread([4, 1, 2, 3])).toEqual({ median: 2.5, min: 1, max: 4, runs: 4 });
    expect(spread([]).runs).toBe(0);
  });
});

describe('formatSpread', () => {
  it('should show the range only when there was more than one run', () => {
    expect(formatSpread(spread([12.34]))).toBe('12.3');
    expect(formatSpread(spread([12, 11.9, 13]))).toBe('12.0 (11.9–13.0)');
    expect(formatSpread(spread([]))).toBe('–');
  });

  it('should show a dash for a figure that could not be computed (a ratio to an untimed floor)', () => {
    expect(formatSpread(spread([NaN]), 2)).toBe('–');
  });
});
