import { describe, expect, it } from 'vitest';
import {
  letterDistance,
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

  it('should time a script the recogniser heard badly by the words it heard in their place', () => {
    const words = scriptTimedBy('Добрый день! Сегодня', [
      w('в', 0, 0.2),
      w('обыльбе.', 0.2, 0.5),
      w('Секундно,', 0.9, 1.4),
    ]);
    expect(words).toEqual([w('Добрый', 0, 0.2), w('день!', 0.2, 0.5), w('Сегодня', 0.9, 1.4)]);
  });

  it("should let a word left out at either end share its neighbour's span", () => {
    expect(scriptTimedBy('hola a todos', [w('ola', 1, 1.4), w('a', 1.4, 1.5), w('todos', 1.5, 1.9)])).toEqual(
      [w('hola', 1, 1.4), w('a', 1.4, 1.5), w('todos', 1.5, 1.9)],
    );
    const tail = scriptTimedBy('vamos a hablar', [w('vamos', 0, 0.4), w('a', 0.4, 0.6)]);
    expect(tail?.map((x) => [x.word, x.start, x.end])).toEqual([
      ['vamos', 0, 0.4],
      ['a', 0.4, 0.5],
      ['hablar', 0.5, 0.6],
    ]);
    const head = scriptTimedBy('pues vamos a', [w('vamos', 0.2, 0.6), w('a', 0.6, 0.8)]);
    expect(head?.map((x) => [x.word, x.start, x.end])).toEqual([
      ['pues', 0.2, 0.4],
      ['vamos', 0.4, 0.6],
      ['a', 0.6, 0.8],
    ]);
  });

  it('should keep the transcript (null) when the word counts are far apart', () => {
    // A script without spaces is one word; the recogniser's pieces caption it.
    expect(
      scriptTimedBy('今日は天気がいいですね。', [w('今日', 0, 0.3), w('は', 0.3, 0.4), w('天気', 0.4, 0.8)]),
    ).toBeNull();
    expect(scriptTimedBy('one two three four five', [w('one', 0, 1), w('two', 1, 2)])).toBeNull();
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

describe('letterDistance', () => {
  it('should give the share of letters that differ', () => {
    expect(letterDistance('hello', 'hallo')).toBeCloseTo(0.2);
    expect(letterDistance('abc', 'abc')).toBe(0);
    expect(letterDistance('abc', 'xyz')).toBe(1);
    expect(letterDistance('', 'ab')).toBe(1);
  });

  it('should make matchWords pair a word with the one that sounds like it', () => {
    expect(matchWords(['hello', 'there'], ['hallo'])).toEqual([0, undefined]);
    expect(matchWords(['well', 'hello'], ['hallo'])).toEqual([undefined, 0]);
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
