/**
 * Traced runs side by side as a Markdown table (bench/memory/peak-table).
 */
import { describe, expect, it } from 'vitest';
import { peakTable } from '../../../../bench/memory/peak-table.js';

const proc = (pid: string, role: string, rss: number) => ({ pid, role, rss });

describe('peakTable', () => {
  it('should put workerd first, skip wrangler, mark several processes of a role and a run without the role', () => {
    const lines = peakTable([
      {
        label: 'blur 1 min',
        samples: [
          {
            t: 0,
            procs: [
              proc('9', 'wrangler (node)', 345),
              proc('1', 'ffmpeg', 100),
              proc('2', 'workerd user', 319),
            ],
            heaps: {},
          },
          {
            t: 2,
            procs: [proc('1', 'ffmpeg', 150), proc('3', 'ffmpeg', 70), proc('2', 'workerd user', 700)],
            heaps: { 'core:user:video-api': { used: 40, total: 60, backing: 8 } },
          },
        ],
      },
      { label: 'visual 1 min', samples: [{ t: 4, procs: [proc('2', 'workerd user', 650)], heaps: {} }] },
    ]);
    expect(lines).toEqual([
      '| peak RSS MiB (first → last) | blur 1 min (2 s) | visual 1 min (4 s) |',
      '| --- | --- | --- |',
      '| workerd user | **700** (319 → 700) | **650** (650 → 650) |',
      '| ffmpeg | **150** (+70) (100 → 150) | – |',
      '| heap core:user:video-api: used / backing | 40 / 8 | – |',
    ]);
  });
});
