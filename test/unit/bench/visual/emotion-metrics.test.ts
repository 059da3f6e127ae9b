/**
 * The facial-emotion measurement's pure pieces: decision rules, smoothing, confusion figures and
 * RAVDESS file-name labels.
 */
import { describe, expect, it } from 'vitest';
import {
  confusion,
  neutralUnlessRule,
  ravdessLabel,
  smooth,
  topRule,
} from '../../../../bench/visual/emotion-metrics.js';

const s = (neutral: number, fear: number) => [
  { emotion: 'neutral', score: neutral },
  { emotion: 'fear', score: fear },
];

describe('emotion decision rules', () => {
  it('should label the top class, or neutral unless another class is confident', () => {
    const frames = [s(0.2, 0.6), s(0.1, 0.8), null];
    expect(topRule(0.3).label(frames)).toEqual(['fear', 'fear', null]);
    expect(neutralUnlessRule(0.7).label(frames)).toEqual(['neutral', 'fear', null]);
  });
  it('should smooth each class over neighbouring frames with a face', () => {
    const out = smooth([s(0.2, 0.6), s(0.6, 0.2), null], 1);
    expect(out[0]).toEqual([
      { emotion: 'neutral', score: 0.4 },
      { emotion: 'fear', score: 0.4 },
    ]);
    expect(out[2]).toBeNull();
    // A one-frame spike of fear between calm frames stays below 0.7 after smoothing.
    expect(neutralUnlessRule(0.7, 1).label([s(0.9, 0.1), s(0.1, 0.9), s(0.9, 0.1)])[1]).toBe('neutral');
  });
});

describe('confusion', () => {
  it('should give per-class precision and recall', () => {
    const { classes, table } = confusion([
      { truth: 'neutral', predicted: 'neutral' },
      { truth: 'neutral', predicted: 'fear' },
      { truth: 'fear', predicted: 'fear' },
    ]);
    expect(table.get('neutral')?.get('fear')).toBe(1);
    expect(classes).toEqual([
      { label: 'fear', support: 1, predicted: 2, precision: 0.5, recall: 1 },
      { label: 'neutral', support: 2, predicted: 1, precision: 1, recall: 0.5 },
    ]);
  });
  it('should read RAVDESS file names, calm as neutral', () => {
    expect(ravdessLabel('01-01-06-01-02-01-12.mp4')).toBe('fear');
    expect(ravdessLabel('02-01-02-01-01-01-01.mp4')).toBe('neutral');
    expect(ravdessLabel('talking.mp4')).toBeNull();
  });
});
