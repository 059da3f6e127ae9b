import { describe, expect, it } from 'vitest';
import { buildTokens, isHesitation } from '../../../../../src/analytics/speech/tokens';

const w = (word: string, start: number, end = start + 0.2, confidence = 0.8) => ({
  word,
  start,
  end,
  confidence,
});

describe('hesitation sounds', () => {
  it('should recognise engine spellings of filled pauses', () => {
    for (const s of [
      'um',
      'umm',
      'uhm',
      'uh',
      'uhh',
      'er',
      'erm',
      'ehm',
      'ah',
      'ahh',
      'hmm',
      'hm',
      'mm',
      'mmm',
    ]) {
      expect(isHesitation(s), s).toBe(true);
    }
  });
  it('should not treat words or backchannels as hesitations', () => {
    for (const s of ['am', 'me', 'mhm', 'uh-huh', 'her', 'a', 'emma', 'hum', 'ahead'])
      expect(isHesitation(s), s).toBe(false);
  });
});

describe('buildTokens', () => {
  it('should turn pocketsphinx markup into words and drop non-speech markers', () => {
    const tokens = buildTokens([
      w('<s>', 0),
      w('++UM++', 0.2),
      w('[uh]', 0.5),
      w('<sil>', 0.8),
      w('the(2)', 1.1),
      w('[NOISE]', 1.3),
      w('cat', 1.5),
      w('</s>', 1.8),
    ]);
    expect(tokens.map((t) => t.text)).toEqual(['um', 'uh', 'the', 'cat']);
    expect(tokens.map((t) => t.hesitation)).toEqual([true, true, false, false]);
  });
  it('should keep Whisper punctuation for the transcript but strip it for the word form', () => {
    const [a, b, c] = buildTokens([
      w(' Hello,', 0),
      w('World.', 0.3),
      w('[BLANK_AUDIO]', 0.6),
      w('Don’t', 0.9),
    ]);
    expect(a).toMatchObject({ text: 'Hello,', norm: 'hello', clauseEnd: true, sentenceEnd: false });
    expect(b).toMatchObject({ norm: 'world', sentenceEnd: true });
    expect(c.norm).toBe("don't");
  });
  it('should sort by time, drop non-finite times and clamp bad spans and confidences', () => {
    const tokens = buildTokens([
      w('b', 1),
      w('a', 0),
      { word: 'x', start: NaN, end: 1, confidence: 1 },
      { word: 'c', start: 2, end: 1.5, confidence: 7 },
    ]);
    expect(tokens.map((t) => t.norm)).toEqual(['a', 'b', 'c']);
    expect(tokens[2]).toMatchObject({ start: 2, end: 2, confidence: 1, index: 2 });
  });
});
