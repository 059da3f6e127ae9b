/**
 * The speed gates (bench/gates/gates): seconds for analysis, multiples of the floor for renders.
 */
import { describe, expect, it } from 'vitest';
import {
  describeGate,
  floorRatio,
  GATES,
  meetsGate,
  pairedFloorRatios,
} from '../../../../bench/gates/gates.js';

describe('meetsGate', () => {
  it('should hold analysis to seconds and renders to the floor of the same run', () => {
    expect(meetsGate(GATES.speech, 9, undefined)).toBe(true);
    expect(meetsGate(GATES.speech, 9.1, 16)).toBe(false);
    expect(meetsGate(GATES.visual, 15, undefined, 60)).toBe(true);
    expect(meetsGate(GATES['visual-unseen'], 15.1, 16, 60)).toBe(false);
    expect(meetsGate(GATES.blur, 20.8, 16)).toBe(true); // 1.30×
    expect(meetsGate(GATES.blur, 21, 16)).toBe(false);
    expect(meetsGate(GATES.all, 48, 16)).toBe(true);
    expect(meetsGate(GATES.all, 48.5, 16)).toBe(false);
  });
  it('should not claim a floor gate without a floor', () => {
    expect(meetsGate(GATES.blur, 10, undefined)).toBeNull();
    expect(meetsGate(GATES.visual, 10, undefined)).toBeNull(); // an RTF without the clip's length
    expect(floorRatio(10, 0)).toBeNaN();
  });
});

describe('pairedFloorRatios', () => {
  it('should divide each run by the floor timed beside it, not by one floor for the round', () => {
    // The host slowed down between the two pairs: each ratio still compares like with like.
    expect(pairedFloorRatios([13, 16.5], [10, 15])).toEqual([1.3, 1.1]);
    expect(pairedFloorRatios([13], [0])[0]).toBeNaN();
  });
});

describe('describeGate', () => {
  it('should show the real-time factor beside a seconds gate and the seconds beside an RTF gate', () => {
    expect(describeGate(GATES.speech, 60)).toBe('≤ 9 s (RTF 0.15)');
    expect(describeGate(GATES.visual, 60)).toBe('RTF ≤ 0.25 (≤ 15 s)');
    expect(describeGate(GATES.all, 60)).toBe('≤ 3× floor');
  });
});
