/**
 * `concurrentSteps`: lanes start together, steps within a lane keep their order, `when` still
 * skips, progress is the weighted sum of the inner steps' own reports, and every lane is waited
 * for before a failure is thrown.
 */
import { describe, expect, it, vi } from 'vitest';
import type { JobRecord } from '../../../../src/jobs/state.js';
import type { Step, StepContext } from '../../../../src/pipeline/context.js';
import { concurrentSteps } from '../../../../src/pipeline/concurrent.js';

const job = { video_id: 'vid_test', options: {} } as unknown as JobRecord;
const tick = () => new Promise((r) => setTimeout(r, 5));

function context(reports: number[]): StepContext {
  return { job, report: async (f: number) => void reports.push(f) } as unknown as StepContext;
}

function step(
  name: string,
  log: string[],
  options: Partial<Step> & { fail?: boolean; ticks?: number } = {},
): Step {
  return {
    name,
    weight: options.weight ?? 10,
    when: options.when,
    async run(ctx) {
      log.push(`${name}:start`);
      for (let i = 0; i < (options.ticks ?? 1); i++) {
        await tick();
        await ctx.report((i + 1) / (options.ticks ?? 1));
      }
      if (options.fail) throw new Error(`${name} failed`);
      log.push(`${name}:end`);
    },
  };
}

describe('concurrentSteps', () => {
  vi.spyOn(console, 'log').mockImplementation(() => {});

  it('should start every lane at once and keep each lane in order', async () => {
    const log: string[] = [];
    const group = concurrentSteps('g', [
      [step('a', log, { ticks: 3 }), step('b', log)],
      [step('v', log, { ticks: 2 })],
    ]);
    expect(group.weight).toBe(30);
    await group.run(context([]));
    expect(log.slice(0, 2)).toEqual(['a:start', 'v:start']);
    expect(log.indexOf('a:end')).toBeLessThan(log.indexOf('b:start'));
    expect(log).toContain('v:end');
  });

  it('should skip steps whose when() is false and leave them out of the progress', async () => {
    const log: string[] = [];
    const reports: number[] = [];
    const group = concurrentSteps('g', [
      [step('a', log)],
      [step('v', log, { when: () => false, weight: 90 })],
    ]);
    await group.run(context(reports));
    expect(log).toEqual(['a:start', 'a:end']);
    expect(reports.at(-1)).toBe(1);
  });

  it('should report the weighted progress of all lanes, never decreasing, ending at 1', async () => {
    const reports: number[] = [];
    const group = concurrentSteps('g', [
      [step('a', [], { ticks: 4, weight: 30 })],
      [step('v', [], { ticks: 2, weight: 10 })],
    ]);
    await group.run(context(reports));
    for (let i = 1; i < reports.length; i++) expect(reports[i]).toBeGreaterThanOrEqual(reports[i - 1]);
    expect(reports.at(-1)).toBe(1);
    expect(reports).toContain((30 * 0.25 + 10 * 0.5) / 40);
  });

  it('should wait for the other lane before throwing the first failure', async () => {
    const log: string[] = [];
    const group = concurrentSteps('g', [[step('a', log, { fail: true })], [step('v', log, { ticks: 5 })]]);
    await expect(group.run(context([]))).rejects.toThrow('a failed');
    expect(log).toContain('v:end');
  });
});
