/**
 * Peak memory per service process role from trace samples (bench/memory/role-peaks).
 */
import { describe, expect, it } from 'vitest';
import { heapPeaks, rolePeaks, type TraceSample } from '../../../../bench/memory/role-peaks.js';

const sample = (t: number, procs: Array<[string, string, number]>, heaps: TraceSample['heaps'] = {}) => ({
  t,
  procs: procs.map(([pid, role, rss]) => ({ pid, role, rss })),
  heaps,
});

describe('rolePeaks', () => {
  it('should keep the largest process and the largest sum of a role apart, with its first and last size', () => {
    const peaks = rolePeaks([
      sample(0, [
        ['1', 'media service (node)', 49],
        ['2', 'media service (node)', 570],
      ]),
      sample(2, [
        ['1', 'media service (node)', 49],
        ['2', 'media service (node)', 900],
        ['3', 'ffmpeg', 100],
        ['4', 'ffmpeg', 60],
      ]),
      sample(4, [
        ['1', 'media service (node)', 49],
        ['2', 'media service (node)', 610],
        ['5', 'ffmpeg', 120],
      ]),
    ]);
    expect(peaks).toEqual([
      { role: 'media service (node)', peakProcess: 900, peakSum: 949, first: 570, last: 610 },
      { role: 'ffmpeg', peakProcess: 120, peakSum: 160, first: 100, last: 120 },
    ]);
  });
});

describe('heapPeaks', () => {
  it('should take the peak used heap and backing store of each isolate, a missing backing as 0', () => {
    expect(
      heapPeaks([
        sample(0, [], { a: { used: 20, total: 25, backing: 3 }, b: { used: 1, total: 2 } }),
        sample(2, [], { a: { used: 61, total: 75, backing: 1 }, b: { used: 3, total: 4 } }),
      ]),
    ).toEqual([
      { isolate: 'a', peakUsed: 61, peakBacking: 3 },
      { isolate: 'b', peakUsed: 3, peakBacking: 0 },
    ]);
  });
});
