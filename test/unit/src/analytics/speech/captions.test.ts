import { describe, expect, it } from 'vitest';
import {
  buildCues,
  captionTime,
  toSrt,
  toWebVtt,
  wrapCaption,
  type Cue,
} from '../../../../../src/analytics/speech/captions.js';
import type { TimedWord } from '../../../../../src/contract/media.js';

/** Words with given gaps: each word lasts `dur` s, then `gap` s of silence (or gaps[i]). */
function timed(text: string, { dur = 0.3, gap = 0.1, gaps = {} as Record<number, number>, at = 0 } = {}) {
  let t = at;
  return text.split(' ').map((word, i): TimedWord => {
    const w = { word, start: t, end: t + dur, confidence: 0.9 };
    t += dur + (gaps[i] ?? gap);
    return w;
  });
}

/** Every invariant a cue list must hold against the words it came from. */
function checkAgainstWords(cues: Cue[], words: TimedWord[]) {
  const spoken = words.map((w) => w.word);
  // Every word once, in order, nothing else.
  expect(cues.flatMap((c) => c.lines.join(' ').split(' '))).toEqual(spoken);
  let i = 0;
  let lastEnd = -Infinity;
  for (const cue of cues) {
    const n = cue.lines.join(' ').split(' ').length;
    const own = words.slice(i, i + n);
    i += n;
    // The cue's times are its words' own.
    expect(cue.start).toBe(own[0].start);
    expect(cue.end).toBe(own[own.length - 1].end);
    expect(cue.start).toBeGreaterThanOrEqual(lastEnd);
    lastEnd = cue.end;
    expect(cue.end - cue.start).toBeLessThanOrEqual(7);
    expect(cue.lines.length).toBeLessThanOrEqual(2);
    for (const line of cue.lines) expect(line.length).toBeLessThanOrEqual(42);
  }
}

describe('wrapCaption', () => {
  it('should keep text that fits on one line on one line', () => {
    expect(wrapCaption(['And', 'so,', 'my', 'fellow', 'Americans'])).toEqual(['And so, my fellow Americans']);
  });

  it('should balance two lines and refuse what needs three', () => {
    const words = 'ask not what your country can do for you ask what you can do'.split(' ');
    const lines = wrapCaption(words)!;
    expect(lines).toHaveLength(2);
    expect(lines.join(' ')).toBe(words.join(' '));
    expect(Math.abs(lines[0].length - lines[1].length)).toBeLessThanOrEqual(8);
    expect(wrapCaption('x'.repeat(40).split('').concat('y'.repeat(45).split('')))).toBeNull();
  });
});

describe('buildCues', () => {
  it('should end a cue at every sentence end', () => {
    const words = timed('Hello there. How are you? Fine!');
    const cues = buildCues(words);
    expect(cues.map((c) => c.lines.join(' '))).toEqual(['Hello there.', 'How are you?', 'Fine!']);
    checkAgainstWords(cues, words);
  });

  it('should end a cue at a pause of 0.6 s, not at a shorter one', () => {
    const words = timed('we choose to go to the moon in this decade', { gaps: { 3: 0.59, 5: 0.6 } });
    const cues = buildCues(words);
    expect(cues.map((c) => c.lines.join(' '))).toEqual(['we choose to go to the', 'moon in this decade']);
    expect(cues[1].start).toBeCloseTo(words[6].start, 9);
    checkAgainstWords(cues, words);
  });

  it('should hold at most 7 s, two lines of 42 characters, cutting at a clause end when it can', () => {
    // Unpunctuated speech with no pauses: only the limits cut it.
    const long = timed(
      Array.from({ length: 120 }, (_, i) => ['word', 'another', 'x', 'longerword'][i % 4]).join(' '),
    );
    checkAgainstWords(buildCues(long), long);
    // Slow speech: 7 s bound the cue before the characters do.
    const slow = timed('one two three four five six seven eight nine ten', { dur: 0.9, gap: 0.05 });
    const slowCues = buildCues(slow);
    expect(slowCues.length).toBeGreaterThan(1);
    checkAgainstWords(slowCues, slow);
    // Full at "shore": the cue ends after the comma and "and then we" moves on.
    const clause = timed(
      'we sailed the whole night across the bay to the far shore, and then we walked home again slowly',
    );
    const cues = buildCues(clause);
    expect(cues[0].lines.join(' ')).toBe('we sailed the whole night across the bay to the far shore,');
    checkAgainstWords(cues, clause);
  });

  it('should drop engine markup and keep the times of the words that remain', () => {
    const words: TimedWord[] = [
      { word: '<sil>', start: 0, end: 0.5, confidence: 1 },
      { word: 'hello', start: 0.5, end: 0.9, confidence: 1 },
      { word: '[NOISE]', start: 0.9, end: 1.0, confidence: 1 },
      { word: 'world', start: 1.0, end: 1.4, confidence: 1 },
    ];
    expect(buildCues(words)).toEqual([{ start: 0.5, end: 1.4, lines: ['hello world'] }]);
    expect(buildCues([])).toEqual([]);
  });
});

describe('captions of a language written without spaces', () => {
  it('should join its words without spaces in a line', () => {
    const words: TimedWord[] = ['我在', '這', '一個', '獎', '堂', '中。'].map((word, i) => ({
      word,
      start: i * 0.3,
      end: i * 0.3 + 0.25,
      confidence: 0.9,
    }));
    expect(buildCues(words, { language: 'zh' })).toEqual([
      { start: 0, end: 1.75, lines: ['我在這一個獎堂中。'] },
    ]);
    expect(buildCues(words)[0].lines).toEqual(['我在 這 一個 獎 堂 中。']);
    expect(wrapCaption(['ab', 'cd', 'ef'], 4, 2, '')).toEqual(['ab', 'cdef']);
  });
});

describe('caption files', () => {
  const cues: Cue[] = [
    { start: 0.98, end: 2.5, lines: ['And so, my fellow Americans:'] },
    { start: 3712.0456, end: 3714.5, lines: ['ask not what your country', 'can do for you'] },
  ];

  it('should write times as WebVTT and SubRip want them', () => {
    expect(captionTime(3712.0456, '.')).toBe('01:01:52.046');
    expect(captionTime(0.98, ',')).toBe('00:00:00,980');
  });

  it('should write a WebVTT file with its language and a SubRip file', () => {
    expect(toWebVtt(cues, 'en')).toBe(
      'WEBVTT\nLanguage: en\n\n1\n00:00:00.980 --> 00:00:02.500\nAnd so, my fellow Americans:\n\n' +
        '2\n01:01:52.046 --> 01:01:54.500\nask not what your country\ncan do for you\n',
    );
    expect(toSrt(cues)).toBe(
      '1\n00:00:00,980 --> 00:00:02,500\nAnd so, my fellow Americans:\n\n' +
        '2\n01:01:52,046 --> 01:01:54,500\nask not what your country\ncan do for you\n',
    );
  });
});
