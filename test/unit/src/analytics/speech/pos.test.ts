import { describe, expect, it } from 'vitest';
import { POS_TAGS } from '../../../../../src/contract/result';
import { buildPos, tagTokens } from '../../../../../src/analytics/speech/pos';
import { tokensOf } from './helpers';

describe('tagTokens', () => {
  it('should tag a simple sentence with Universal POS tags', () => {
    const tokens = tokensOf('the cat sat on the mat');
    expect(tagTokens(tokens)).toEqual(['DET', 'NOUN', 'VERB', 'ADP', 'DET', 'NOUN']);
  });
  it('should tag hesitations as INTJ without disturbing the rest', () => {
    const tokens = tokensOf('the cat um sat quickly');
    expect(tagTokens(tokens)).toEqual(['DET', 'NOUN', 'INTJ', 'VERB', 'ADV']);
  });
  it('should give contractions and punctuated words one tag each', () => {
    const tokens = tokensOf("Well, I don't know.");
    const tags = tagTokens(tokens);
    expect(tags).toHaveLength(4);
    expect(tags[3]).toBe('VERB');
  });
});

describe('buildPos', () => {
  it('should group each lowercase word form with all its timestamps', () => {
    const tokens = tokensOf('The cat saw the dog and the dog saw the Cat', { dur: 0.5, gap: 0 });
    const pos = buildPos(tokens, tagTokens(tokens));
    expect(pos.NOUN.map((e) => e.word)).toEqual(['cat', 'dog']);
    expect(pos.NOUN[0].timestamps).toEqual([
      { start: 0.5, end: 1 },
      { start: 5, end: 5.5 },
    ]);
    expect(pos.VERB).toEqual([
      {
        word: 'saw',
        timestamps: [
          { start: 1, end: 1.5 },
          { start: 4, end: 4.5 },
        ],
      },
    ]);
  });
  it('should always have the six keys, and report forced interjections as INTJ', () => {
    const tokens = tokensOf('like wow');
    const pos = buildPos(tokens, ['ADP', 'X'], new Set([0]));
    expect(Object.keys(pos).sort()).toEqual([...POS_TAGS].sort());
    expect(pos.INTJ).toEqual([{ word: 'like', timestamps: [{ start: 0, end: 0.3 }] }]);
    expect(buildPos([], [])).toEqual({ NOUN: [], VERB: [], ADP: [], ADJ: [], ADV: [], INTJ: [] });
  });
});
