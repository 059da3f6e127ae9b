import { describe, expect, it } from 'vitest';
import { countSyllables, fleschKincaidGrade } from '../../../../../src/analytics/speech/readability';
import { lexicalDiversity } from '../../../../../src/analytics/speech/lexical';
import { splitSentences } from '../../../../../src/analytics/speech/sentences';
import { detectPauses } from '../../../../../src/analytics/speech/pauses';
import { tokensOf } from './helpers';

describe('fleschKincaidGrade', () => {
  it('should match the formula on a known sentence', () => {
    // 6 words, 1 sentence, 14 syllables: 0.39·6 + 11.8·14/6 − 15.59 = 14.2833…
    const tokens = tokensOf('The committee considered the proposal carefully.');
    expect(fleschKincaidGrade([tokens])).toBeCloseTo(0.39 * 6 + (11.8 * 14) / 6 - 15.59, 9);
  });
  it('should clamp very simple text at grade 0 (raw −1.45)', () => {
    expect(fleschKincaidGrade([tokensOf('The cat sat on the mat.')])).toBe(0);
  });
  it('should ignore hesitations and give 0 without words', () => {
    const plain = fleschKincaidGrade([tokensOf('The committee considered the proposal carefully.')]);
    expect(
      fleschKincaidGrade([tokensOf('The committee um considered uh the proposal carefully.')]),
    ).toBeCloseTo(plain, 9);
    expect(fleschKincaidGrade([])).toBe(0);
  });
  it('should count at least one syllable per word', () => {
    expect(countSyllables('5')).toBe(1);
    expect(countSyllables('readability')).toBe(5);
  });
});

describe('splitSentences', () => {
  it('should follow punctuation when the recogniser punctuates', () => {
    const tokens = tokensOf('Hello there. How are you? Fine');
    expect(splitSentences(tokens, []).map((s) => s.length)).toEqual([2, 3, 1]);
  });
  it('should split unpunctuated speech at long pauses', () => {
    const tokens = tokensOf('we went home /1.2/ it was late');
    expect(splitSentences(tokens, detectPauses(tokens, [])).map((s) => s.length)).toEqual([3, 3]);
  });
  it('should cut long unpunctuated runs into equal parts of at most maxSentenceWords', () => {
    const tokens = tokensOf(Array.from({ length: 45 }, (_, i) => `w${i}`).join(' '));
    expect(splitSentences(tokens, [], { maxSentenceWords: 20 }).map((s) => s.length)).toEqual([15, 15, 15]);
  });
});

describe('lexicalDiversity', () => {
  it('should be unique/total word forms for short texts, case and punctuation folded', () => {
    expect(lexicalDiversity(tokensOf('The cat, and the dog.'))).toBeCloseTo(4 / 5, 9);
    expect(lexicalDiversity(tokensOf('um the uh cat'))).toBe(1);
    expect(lexicalDiversity([])).toBe(0);
  });
  it('should use the moving-average TTR beyond the window', () => {
    // "a b a b …" (100 words): every window of 4 holds 2 types → MATTR 0.5, plain TTR 0.02.
    const tokens = tokensOf(Array.from({ length: 100 }, (_, i) => (i % 2 ? 'b' : 'a')).join(' '));
    expect(lexicalDiversity(tokens, 4)).toBeCloseTo(0.5, 9);
    // 100 distinct words stay at 1 whatever the window.
    expect(lexicalDiversity(tokensOf(Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ')))).toBe(1);
  });
});
