import { describe, expect, it } from 'vitest';
import { PatchBank, redundantIndex } from '../../../../../../containers/media/engines/mouth/bank.js';

describe('PatchBank', () => {
  it('should never hold more than its capacity and keep the openness extremes', () => {
    const bank = new PatchBank<number>(8);
    // A long, mostly half-open clip with one closed and one wide-open frame.
    for (let f = 0; f < 1000; f++) {
      const o = f === 123 ? 0.01 : f === 777 ? 0.6 : 0.2 + 0.1 * Math.sin(f * 0.37);
      bank.add({ openness: o, frame: f, value: f });
      expect(bank.entries.length).toBeLessThanOrEqual(8);
    }
    expect(bank.offered).toBe(1000);
    const o = bank.entries.map((e) => e.openness).sort((a, b) => a - b);
    expect(o[0]).toBe(0.01);
    expect(o[o.length - 1]).toBe(0.6);
    // Spread over the range: no two kept shapes nearly identical.
    for (let i = 1; i < o.length; i++) expect(o[i] - o[i - 1]).toBeGreaterThan(0.01);
  });

  it('should drop the middle one of the closest pair', () => {
    expect(redundantIndex([0, 0.5, 0.52, 1])).toBe(2);
    expect(redundantIndex([0.3, 0.1, 0.31, 0.9])).toBe(0);
  });
});
