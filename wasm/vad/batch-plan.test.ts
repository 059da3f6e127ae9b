import { describe, expect, it } from 'vitest';
import { planBatches, stepsOf } from './batch-plan.js';

describe('planBatches', () => {
  it('should keep every frame exactly once, in order', () => {
    for (const frameCount of [1, 159, 160, 333, 1875, 10_000]) {
      const plan = planBatches(frameCount, { maxBatch: 16 });
      const kept = plan.flatMap((row) => Array.from({ length: row.end - row.keep }, (_, i) => row.keep + i));
      expect(kept).toEqual(Array.from({ length: frameCount }, (_, i) => i));
    }
  });

  it('should use one sequential row for short audio and by default', () => {
    expect(planBatches(100, { maxBatch: 16 })).toEqual([{ start: 0, keep: 0, end: 100 }]);
    expect(planBatches(5000)).toEqual([{ start: 0, keep: 0, end: 5000 }]);
  });

  it('should warm every row but the first up on the frames before it', () => {
    const plan = planBatches(1875, { maxBatch: 16 });
    expect(plan.length).toBe(11);
    expect(plan[0]).toEqual({ start: 0, keep: 0, end: 171 });
    expect(plan[1]).toEqual({ start: 155, keep: 171, end: 342 });
    expect(stepsOf(plan)).toBe(187);
  });

  it('should cap the rows at maxBatch', () => {
    expect(planBatches(100_000, { maxBatch: 16 }).length).toBe(16);
  });

  it('should plan nothing for no frames', () => {
    expect(planBatches(0)).toEqual([]);
  });
});
