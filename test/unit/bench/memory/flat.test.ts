/**
 * Flat memory against media length (bench/memory/flat).
 */
import { describe, expect, it } from 'vitest';
import { describeFlatness, flatness } from '../../../../bench/memory/flat.js';

describe('flatness', () => {
  it('should compare the longest length with the shortest, in any order', () => {
    expect(
      flatness([
        { minutes: 30, peakMiB: 1100 },
        { minutes: 1, peakMiB: 1000 },
        { minutes: 10, peakMiB: 1300 },
      ]),
    ).toEqual({ verdict: 'flat', growth: 0.1 });
    expect(
      flatness([
        { minutes: 1, peakMiB: 1000 },
        { minutes: 30, peakMiB: 1200 },
      ]).verdict,
    ).toBe('grows');
  });
  it('should not call one length flat', () => {
    expect(flatness([{ minutes: 1, peakMiB: 1000 }])).toEqual({ verdict: 'one length' });
    expect(describeFlatness(flatness([{ minutes: 1, peakMiB: 1000 }]))).toMatch(/^n\/a/);
    expect(describeFlatness({ verdict: 'grows', growth: 0.42 })).toBe(
      'grows (+42 % from the shortest to the longest)',
    );
  });
});
