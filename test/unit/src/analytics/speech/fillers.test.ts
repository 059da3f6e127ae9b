import { describe, expect, it } from 'vitest';
import { detectFillers } from '../../../../../src/analytics/speech/fillers';
import { tagTokens } from '../../../../../src/analytics/speech/pos';
import { tokensOf, type Timing } from './helpers';

/** Filler words found in `text` (tagged like the real pipeline). */
function fillers(text: string, timing?: Timing): string[] {
  const tokens = tokensOf(text, timing);
  return detectFillers(tokens, tagTokens(tokens)).map((f) => f.word);
}

describe('hesitation fillers', () => {
  it('should always count um, uh, er and engine spellings', () => {
    expect(fillers('um we went uh there erm and ++UM++ came [uh] back hmm')).toEqual([
      'um',
      'uh',
      'erm',
      'um',
      'uh',
      'hmm',
    ]);
  });
  it('should report the span and the recogniser confidence', () => {
    const tokens = tokensOf('we um went', { start: 1, dur: 0.4, gap: 0.1 });
    const [f] = detectFillers(tokens);
    expect(f).toMatchObject({ word: 'um', start: 1.5, end: 1.9, confidence: 0.9 });
  });
});

describe('"like"', () => {
  it('should not count the verb or the preposition', () => {
    expect(fillers('I like pizza')).toEqual([]);
    expect(fillers('it looks like rain')).toEqual([]);
    expect(fillers('I would like to go home')).toEqual([]);
    expect(fillers('something like that')).toEqual([]);
    expect(fillers('they like it a lot')).toEqual([]);
  });
  it('should count "like" set off by commas (Whisper) or by pauses (any engine)', () => {
    expect(fillers('we were, like, totally lost')).toEqual(['like']);
    expect(fillers('we were /0.3/ like /0.3/ totally lost')).toEqual(['like']);
  });
  it('should count "like" before an intensifier, adjective or number', () => {
    expect(fillers('it was like really good')).toEqual(['like']);
    expect(fillers('there were like fifty people')).toEqual(['like']);
  });
  it('should count clause-initial "like" before a new subject but not "like I said"', () => {
    expect(fillers('so like we went there')).toEqual(['so', 'like']);
    expect(fillers('and like we went there')).toEqual(['like']);
    expect(fillers('like I said it works')).toEqual([]);
  });
});

describe('multi-word fillers', () => {
  it('should count "you know" as one instance spanning both words', () => {
    const tokens = tokensOf('it was great, you know, really great');
    const found = detectFillers(tokens, tagTokens(tokens));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      word: 'you know',
      start: tokens[3].start,
      end: tokens[4].end,
      tokens: [3, 4],
    });
  });
  it('should count unpunctuated "you know" before a conjunction or at the end', () => {
    expect(fillers('it was great you know but we left')).toEqual(['you know']);
    expect(fillers('we left early you know')).toEqual(['you know']);
  });
  it('should not count "you know" with an object or in a question', () => {
    expect(fillers('do you know the answer')).toEqual([]);
    expect(fillers('you know that it works')).toEqual([]);
  });
  it('should tell filler "I mean" from "I mean it"', () => {
    expect(fillers('I mean, we tried')).toEqual(['i mean']);
    expect(fillers('I mean it')).toEqual([]);
    expect(fillers('that is what I mean')).toEqual([]);
  });
  it('should count hedging "kind of" but not "this kind of thing"', () => {
    expect(fillers('it was kind of weird')).toEqual(['kind of']);
    expect(fillers('this kind of thing happens')).toEqual([]);
  });
});

describe('other discourse fillers', () => {
  it('should count "so" and "well" only as detached markers', () => {
    expect(fillers('So, we started')).toEqual(['so']);
    expect(fillers('we were so happy')).toEqual([]);
    expect(fillers('Well, I think so')).toEqual(['well']);
    expect(fillers('it went well today')).toEqual([]);
  });
  it('should count sentence adverbs at a clause edge but not inside the clause', () => {
    expect(fillers('basically we rewrote it')).toEqual(['basically']);
    expect(fillers('is that actually true')).toEqual([]);
    expect(fillers('it works, right? yes')).toEqual(['right']);
    expect(fillers('that is right')).toEqual([]);
  });
});
