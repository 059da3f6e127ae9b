import { describe, expect, it } from 'vitest';
import { computePace } from '../../../../../src/analytics/speech/pace';
import { detectPauses } from '../../../../../src/analytics/speech/pauses';
import { buildTokens } from '../../../../../src/analytics/speech/tokens';
import { tokensOf } from './helpers';

/** `n` words evenly over `seconds`, each `dur` long, the last ending exactly at `seconds`. */
function even(n: number, seconds: number, dur = 0.3) {
  const step = (seconds - dur) / (n - 1);
  return buildTokens(
    Array.from({ length: n }, (_, i) => ({
      word: `w${i}`,
      start: i * step,
      end: i * step + dur,
      confidence: 1,
    })),
  );
}

describe('words_per_minute', () => {
  it('should give 120 WPM for 120 words evenly over 60 s', () => {
    const tokens = even(120, 60);
    expect(computePace(tokens, detectPauses(tokens, []), 0.25).words_per_minute).toBeCloseTo(120, 6);
  });
  it('should not count hesitation sounds as words', () => {
    const tokens = tokensOf('we um went uh home', { dur: 0.5, gap: 0 }); // 2.5 s, 3 lexical words
    expect(computePace(tokens, [], 0.25)).toMatchObject({ word_count: 3, words_per_minute: 72 });
  });
  it('should be 0 without words', () => {
    expect(computePace([], [], 0.25)).toMatchObject({
      words_per_minute: 0,
      avg_word_duration: 0,
      speech_to_pause_ratio: 0,
    });
  });
});

describe('avg_word_duration', () => {
  it('should average lexical word durations in seconds', () => {
    const tokens = buildTokens([
      { word: 'a', start: 0, end: 0.2, confidence: 1 },
      { word: 'um', start: 0.2, end: 1.2, confidence: 1 },
      { word: 'b', start: 1.2, end: 1.6, confidence: 1 },
    ]);
    expect(computePace(tokens, [], 0.25).avg_word_duration).toBeCloseTo(0.3, 9);
  });
});

describe('speech_to_pause_ratio', () => {
  it('should divide speech time by pause time', () => {
    const tokens = tokensOf('a b /1.95/ c d', { dur: 1, gap: 0.05 }); // span 0–6.1, one 2.0 s pause
    const pauses = detectPauses(tokens, []);
    const pace = computePace(tokens, pauses, 0.25);
    expect(pace.pause_time_sec).toBeCloseTo(2, 6);
    expect(pace.speech_to_pause_ratio).toBeCloseTo(4.1 / 2, 6); // span 6.1 s − 2.0 s pause
  });
  it('should stay finite without pauses: speech time over the minimum pause', () => {
    const tokens = tokensOf('a b c d', { dur: 0.5, gap: 0 }); // 2 s, no pause
    expect(computePace(tokens, [], 0.25).speech_to_pause_ratio).toBeCloseTo(8, 9);
  });
});
