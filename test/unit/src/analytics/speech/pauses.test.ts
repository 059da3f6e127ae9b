import { describe, expect, it } from 'vitest';
import { detectPauses, mergeIntervals } from '../../../../../src/analytics/speech/pauses';
import { tokensOf } from './helpers';

describe('detectPauses from word gaps', () => {
  it('should report a 2.0 s gap as one long pause with a 1.5 s threshold', () => {
    const tokens = tokensOf('one two /1.95/ three four'); // gap = 0.05 + 1.95 = 2.0 s
    const pauses = detectPauses(tokens, [], { longPauseSec: 1.5 });
    expect(pauses).toHaveLength(1);
    expect(pauses[0].start).toBeCloseTo(0.65, 6);
    expect(pauses[0].duration).toBeCloseTo(2.0, 6);
    expect(pauses[0].is_long).toBe(true);
  });
  it('should ignore gaps shorter than the minimum and flag only long ones', () => {
    const tokens = tokensOf('a /0.1/ b /0.3/ c /1.2/ d');
    const pauses = detectPauses(tokens, []);
    expect(pauses.map((p) => [Number(p.duration.toFixed(2)), p.is_long])).toEqual([
      [0.35, false],
      [1.25, true],
    ]);
  });
  it('should never report silence before the first or after the last word', () => {
    const tokens = tokensOf('a b', { start: 5 });
    expect(detectPauses(tokens, [{ start: 5, end: 5.65 }])).toEqual([]);
    expect(detectPauses([], [{ start: 1, end: 2 }])).toEqual([]);
  });
});

describe('detectPauses merged with VAD', () => {
  it('should extend a word gap by the VAD silence around it (stretched word ends)', () => {
    // Recogniser says "a" runs 0–1.0 and "b" starts at 1.2; VAD hears speech only until 0.5.
    const tokens = [
      {
        index: 0,
        text: 'a',
        norm: 'a',
        start: 0,
        end: 1.0,
        confidence: 1,
        hesitation: false,
        clauseEnd: false,
        sentenceEnd: false,
      },
      {
        index: 1,
        text: 'b',
        norm: 'b',
        start: 1.2,
        end: 1.6,
        confidence: 1,
        hesitation: false,
        clauseEnd: false,
        sentenceEnd: false,
      },
    ];
    const pauses = detectPauses(tokens, [
      { start: 0, end: 0.5 },
      { start: 1.2, end: 1.6 },
    ]);
    expect(pauses).toHaveLength(1);
    expect(pauses[0].start).toBeCloseTo(0.75, 6); // VAD silence stops at the core of "a"
    expect(pauses[0].end).toBeCloseTo(1.2, 6);
  });
  it('should add a VAD silence the recogniser bridged between two words', () => {
    const tokens = tokensOf('a b', { dur: 1, gap: 0 }); // "a" 0–1, "b" 1–2: no word gap
    const pauses = detectPauses(tokens, [
      { start: 0, end: 0.6 },
      { start: 1.4, end: 2 },
    ]);
    // VAD silence 0.6–1.4 minus the word cores (0.25–0.75, 1.25–1.75) → 0.75–1.25.
    expect(pauses.map((p) => [p.start, p.end])).toEqual([[0.75, 1.25]]);
  });
  it('should not make a pause of a quiet word the VAD missed', () => {
    const tokens = tokensOf('a b c', { dur: 0.6, gap: 0 }); // b = 0.6–1.2
    expect(
      detectPauses(tokens, [
        { start: 0, end: 0.6 },
        { start: 1.2, end: 1.8 },
      ]),
    ).toEqual([]);
  });
  it('should merge overlapping intervals', () => {
    expect(
      mergeIntervals([
        { start: 2, end: 3 },
        { start: 0, end: 1 },
        { start: 0.5, end: 2 },
      ]),
    ).toEqual([{ start: 0, end: 3 }]);
  });
});
