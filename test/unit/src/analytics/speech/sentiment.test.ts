import { describe, expect, it } from 'vitest';
import { tagTokens } from '../../../../../src/analytics/speech/pos';
import { overallValence, sentimentWords } from '../../../../../src/analytics/speech/sentiment';
import { detectFillers } from '../../../../../src/analytics/speech/fillers';
import { tokensOf } from './helpers';

function scored(text: string) {
  const tokens = tokensOf(text);
  const tags = tagTokens(tokens);
  const skip = new Set(detectFillers(tokens, tags).flatMap((f) => f.tokens));
  return sentimentWords(tokens, tags, skip).map(({ word, compound, time }) => ({
    word,
    compound,
    time: Number(time.toFixed(3)),
  }));
}

describe('sentiment_words', () => {
  it('should score "great" positive and "terrible" negative with VADER compounds', () => {
    expect(scored('the food was great but the service was terrible')).toEqual([
      { word: 'great', compound: 0.6249, time: 1.05 },
      { word: 'terrible', compound: -0.4767, time: 2.8 },
    ]);
  });
  it('should flip a negated word', () => {
    const [w] = scored('it was not great');
    expect(w.word).toBe('great');
    expect(w.compound).toBeLessThan(0);
  });
  it('should skip filler and prepositional "like" but keep the verb', () => {
    expect(scored('it looks like rain')).toEqual([]);
    expect(scored('we were, like, lost').map((w) => w.word)).toEqual(['lost']);
    expect(scored('I like pizza').map((w) => w.word)).toEqual(['like']);
  });
  it('should skip "kind of" and intensifier "pretty"', () => {
    expect(scored('it was kind of pretty good').map((w) => w.word)).toEqual(['good']);
  });
});

describe('overallValence', () => {
  it('should average sentence compounds', () => {
    const tokens = tokensOf('I love this. It is fine.');
    const sentences = [tokens.slice(0, 3), tokens.slice(3)];
    expect(overallValence(sentences)).toBeGreaterThan(0.05);
    expect(overallValence([])).toBe(0);
  });
});
