import { describe, expect, it } from 'vitest';
import { selectPatches } from '../../../../../../containers/media/engines/mouth/select.js';

describe('selectPatches', () => {
  it('should follow the targets exactly when changes cost nothing', () => {
    const pick = selectPatches([0, 0.3, 0.3, 0.1, 0], [0, 0.1, 0.3], { jumpWeight: 0, switchCost: 0 });
    expect(Array.from(pick)).toEqual([0, 2, 2, 1, 0]);
  });

  it('should hold one patch through jitter instead of flickering between near-equal shapes', () => {
    const targets = [0.2, 0.21, 0.19, 0.205, 0.195, 0.2];
    const candidates = [0.19, 0.21, 0.5];
    const greedy = selectPatches(targets, candidates, { jumpWeight: 0, switchCost: 0 });
    expect(new Set(greedy).size).toBeGreaterThan(1);
    const smooth = selectPatches(targets, candidates);
    expect(new Set(smooth).size).toBe(1);
  });

  it('should still open for a real syllable despite the penalty', () => {
    const targets = [0.02, 0.02, 0.4, 0.45, 0.4, 0.02, 0.02];
    expect(Array.from(selectPatches(targets, [0.02, 0.2, 0.42], { jumpWeight: 0 }))).toEqual([
      0, 0, 2, 2, 2, 0, 0,
    ]);
    // The default jump weight eases in and out through the half-open shape (as real lips do).
    expect(Array.from(selectPatches(targets, [0.02, 0.2, 0.42]))).toEqual([0, 1, 2, 2, 2, 1, 0]);
  });

  it('should prefer a gradual path when the jump weight is high', () => {
    // Target jumps 0 → 0.4 in one frame and stays; a heavy jump penalty passes through 0.2.
    const targets = [0, 0, 0, 0.4, 0.4, 0.4, 0.4];
    const pick = Array.from(selectPatches(targets, [0, 0.2, 0.4], { jumpWeight: 1.5, switchCost: 0 }));
    expect(pick[0]).toBe(0);
    expect(pick.filter((k) => k === 1).length).toBe(1);
    expect(pick.slice(4)).toEqual([2, 2, 2]);
  });

  it('should handle empty targets and reject an empty bank', () => {
    expect(selectPatches([], [0.1]).length).toBe(0);
    expect(() => selectPatches([0.1], [])).toThrow(/no candidates/);
  });
});
