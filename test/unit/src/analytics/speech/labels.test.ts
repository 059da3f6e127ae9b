import { describe, expect, it } from 'vitest';
import { classifyStyle, paceBandFor, type StyleFeatures } from '../../../../../src/analytics/speech/style';
import { arousalOf, classifyEmotion } from '../../../../../src/analytics/speech/emotion';

const base: StyleFeatures = {
  wordCount: 150,
  speakingTimeSec: 60,
  wordsPerMinute: 150,
  pauses: 12,
  longPauses: 1,
  pauseTimeSec: 8,
  pitchStdSt: 3,
  readabilityGrade: 7,
};

describe('classifyStyle', () => {
  it('should call balanced delivery conversational', () => {
    expect(classifyStyle(base)).toBe('conversational');
  });
  it('should apply each rule in priority order', () => {
    expect(classifyStyle({ ...base, wordCount: 5 })).toBe('insufficient_speech');
    expect(classifyStyle({ ...base, wordsPerMinute: 200, pauses: 3 })).toBe('rushed');
    expect(classifyStyle({ ...base, longPauses: 5 })).toBe('hesitant');
    expect(classifyStyle({ ...base, wordsPerMinute: 90, pauseTimeSec: 25 })).toBe('hesitant');
    expect(classifyStyle({ ...base, pitchStdSt: 1.2 })).toBe('monotone');
    expect(classifyStyle({ ...base, wordsPerMinute: 200 })).toBe('fast');
    expect(classifyStyle({ ...base, wordsPerMinute: 95 })).toBe('slow');
    expect(classifyStyle({ ...base, pitchStdSt: 5 })).toBe('expressive');
    expect(classifyStyle({ ...base, readabilityGrade: 14 })).toBe('complex');
  });
  it("should judge another language's rate by its own band", () => {
    // 100 WPM is slow English but an ordinary German pace (German's band: 86–133, contract/speech-rate).
    expect(paceBandFor('de')).toEqual([86, 133]);
    expect(classifyStyle({ ...base, wordsPerMinute: 100 })).toBe('slow');
    expect(classifyStyle({ ...base, wordsPerMinute: 100, paceBandWpm: paceBandFor('de') })).toBe(
      'conversational',
    );
    expect(classifyStyle({ ...base, wordsPerMinute: 140, paceBandWpm: paceBandFor('de') })).toBe('fast');
    expect(arousalOf({ valence: 0, pitchStdSt: null, energyStdDb: null, wordsPerMinute: 100 })).toBe('low');
    expect(
      arousalOf({
        valence: 0,
        pitchStdSt: null,
        energyStdDb: null,
        wordsPerMinute: 100,
        paceBandWpm: paceBandFor('de'),
      }),
    ).toBe('medium');
  });
  it('should judge without prosody', () => {
    expect(classifyStyle({ ...base, pitchStdSt: null })).toBe('conversational');
  });
});

describe('classifyEmotion', () => {
  it('should place valence × arousal on the circumplex grid', () => {
    const calm = { pitchStdSt: 1.5, energyStdDb: 3, wordsPerMinute: 100 };
    const lively = { pitchStdSt: 5, energyStdDb: 12, wordsPerMinute: 180 };
    expect(classifyEmotion({ valence: 0.5, ...lively })).toBe('enthusiastic');
    expect(classifyEmotion({ valence: 0.5, ...calm })).toBe('content');
    expect(classifyEmotion({ valence: -0.5, ...lively })).toBe('agitated');
    expect(classifyEmotion({ valence: -0.5, ...calm })).toBe('sad');
    expect(classifyEmotion({ valence: 0, pitchStdSt: null, energyStdDb: null, wordsPerMinute: null })).toBe(
      'neutral',
    );
    expect(classifyEmotion({ valence: 0.2, pitchStdSt: null, energyStdDb: null, wordsPerMinute: 150 })).toBe(
      'positive',
    );
  });
  it('should take the mean vote of the available arousal cues', () => {
    expect(arousalOf({ valence: 0, pitchStdSt: 5, energyStdDb: 12, wordsPerMinute: 100 })).toBe('medium'); // 1+1−1 → 0.33
    expect(arousalOf({ valence: 0, pitchStdSt: 5, energyStdDb: null, wordsPerMinute: 150 })).toBe('high'); // 1+0 → 0.5
  });
});
