import { describe, expect, it } from 'vitest';
import {
  matchWords,
  scriptTimedBy,
  wordKey,
} from '../../../../../../containers/media/engines/render/script-words.js';

const w = (word: string, start: number, end: number, confidence = 0.9) => ({ word, start, end, confidence });

describe('scriptTimedBy', () => {
  // espeak-ng's Spanish voice as Whisper wrote it.
  const heard = [
    w('Bueno,', 0, 0.4),
    w('si', 0.4, 0.6),
    w('asa', 0.6, 0.8),
    w('todos,', 0.8, 1.14),
    w('hoy', 1.64, 1.8),
    w('vamos', 1.8, 2.1),
    w('a', 2.1, 2.2),
    w('hablar.', 2.2, 2.6),
  ];

  it("should give the script's words the times of the words the recogniser heard for them", () => {
    expect(scriptTimedBy('Buenos días a todos. Hoy vamos a hablar.', heard)).toEqual([
      w('Buenos', 0, 0.4),
      w('días', 0.4, 0.6),
      w('a', 0.6, 0.8),
      w('todos.', 0.8, 1.14),
      w('Hoy', 1.64, 1.8),
      w('vamos', 1.8, 2.1),
      w('a', 2.1, 2.2),
      w('hablar.', 2.2, 2.6),
    ]);
  });

  it('should share the gap between its neighbours among script words the recogniser left out', () => {
    const words = scriptTimedBy('hoy vamos todos a hablar', [
      w('hoy', 1, 1.2),
      w('vamos', 1.2, 1.5),
      w('hablar', 2.1, 2.5),
    ]);
    expect(words?.map((x) => x.word)).toEqual(['hoy', 'vamos', 'todos', 'a', 'hablar']);
    expect(words?.[2]).toEqual({ word: 'todos', start: 1.5, end: 1.8, confidence: 0 });
    expect(words?.[3].start).toBeCloseTo(1.8);
    expect(words?.[3].end).toBeCloseTo(2.1);
  });

  it('should keep the transcript (null) when the speech does not say the script', () => {
    expect(scriptTimedBy('Hello there.', [w('Hallo', 0.1, 0.5)])).toBeNull();
    expect(scriptTimedBy('one two three four', [w('one', 0, 1), w('five', 1, 2)])).toBeNull();
    expect(scriptTimedBy('', heard)).toBeNull();
    expect(scriptTimedBy('hoy', [])).toBeNull();
  });
});

describe('matchWords', () => {
  it('should pair equal and substituted words and leave deleted ones unpaired', () => {
    expect(matchWords(['a', 'b', 'c'], ['a', 'x', 'c'])).toEqual([0, 1, 2]);
    expect(matchWords(['a', 'b', 'c'], ['a', 'c'])).toEqual([0, undefined, 1]);
    expect(matchWords(['a', 'c'], ['a', 'b', 'c'])).toEqual([0, 2]);
  });
});

describe('wordKey', () => {
  it('should compare words without case, accents or punctuation', () => {
    expect(wordKey('Días,')).toBe('dias');
    expect(wordKey('¿Qué?')).toBe('que');
    expect(wordKey('268')).toBe('268');
    expect(wordKey('—')).toBe('');
  });
});
