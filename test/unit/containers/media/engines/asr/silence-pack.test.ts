import { describe, expect, it } from 'vitest';
import {
  originalTime,
  packSilences,
  packSpans,
  unpackOutput,
  unpackWord,
} from '../../../../../../containers/media/engines/asr/silence-pack';

const RATE = 16_000;
const OPTIONS = { longerThanSec: 1.7, keptSec: 1, runsShorterThanSec: 10 };
const word = (start: number, end: number, text = 'word') => ({ word: text, start, end, confidence: 1 });

describe('packSpans', () => {
  it('should cut a long silence down to the kept pause, half on each side', () => {
    expect(
      packSpans(
        [
          { start: 1, end: 2 },
          { start: 6, end: 7 },
        ],
        8 * RATE,
        OPTIONS,
      ),
    ).toEqual([
      { from: 0, to: 2.5 * RATE, at: 0 },
      { from: 5.5 * RATE, to: 8 * RATE, at: 2.5 * RATE },
    ]);
  });

  it('should keep pauses the plan already merges across, and the lead and tail silence', () => {
    expect(
      packSpans(
        [
          { start: 5, end: 6 },
          { start: 7.5, end: 8 },
        ],
        20 * RATE,
        OPTIONS,
      ),
    ).toBeNull();
    expect(packSpans([{ start: 5, end: 6 }], 20 * RATE, OPTIONS)).toBeNull();
  });

  it('should keep the silences around a run long enough to be a stretch in another language', () => {
    const speech = [
      { start: 1, end: 3 },
      { start: 6, end: 12 },
      { start: 13, end: 17 }, // with the one before, a run of 11 s
      { start: 20, end: 22 },
      { start: 25, end: 27 },
    ];
    expect(packSpans(speech, 30 * RATE, OPTIONS)).toEqual([
      { from: 0, to: 22.5 * RATE, at: 0 },
      { from: 24.5 * RATE, to: 30 * RATE, at: 22.5 * RATE },
    ]);
  });

  it('should read overlapping and unsorted segments as the speech they cover', () => {
    const spans = packSpans(
      [
        { start: 10, end: 11 },
        { start: 1, end: 4 },
        { start: 2, end: 3 },
      ],
      12 * RATE,
      OPTIONS,
    );
    // The silence is 4..10 s, not 3..10 s: the segment ending at 3 s lies inside 1..4 s.
    expect(spans).toEqual([
      { from: 0, to: 4.5 * RATE, at: 0 },
      { from: 9.5 * RATE, to: 12 * RATE, at: 4.5 * RATE },
    ]);
  });
});

describe('packSilences', () => {
  it('should copy the kept audio and move the speech with it', () => {
    const pcm = new Int16Array(10 * RATE).map((_, i) => (i >= 6 * RATE && i < 7 * RATE ? 100 : 0));
    const packed = packSilences(
      pcm,
      [
        { start: 1, end: 2 },
        { start: 6, end: 7 },
      ],
      OPTIONS,
    )!;
    expect(packed.pcm.length).toBe(7 * RATE);
    expect(packed.speech).toEqual([
      { start: 1, end: 2 },
      { start: 3, end: 4 },
    ]);
    // The second stretch's samples are where its segment now says.
    expect(packed.pcm[3 * RATE]).toBe(100);
    expect(packed.pcm[3 * RATE - 1]).toBe(0);
    expect(packed.pcm[4 * RATE - 1]).toBe(100);
  });

  it('should keep speech said to run past the end of the audio inside it', () => {
    // A caller's segments (the x-speech-segments header) may run past the audio's end.
    const packed = packSilences(
      new Int16Array(10 * RATE),
      [
        { start: 1, end: 2 },
        { start: 5, end: 6 },
        { start: 9, end: 9.5 },
        { start: 9.6, end: 12 },
      ],
      OPTIONS,
    )!;
    // Kept: 0–2.5, 4.5–6.5 and 8.5–10 s (the last run, 9–12 s, ends with the audio).
    expect(packed.pcm.length).toBe(6 * RATE);
    expect(packed.speech.at(-1)).toEqual({ start: 5.6, end: 6 });
    expect(unpackWord(packed.spans, word(5.8, 7))).toMatchObject({ start: 9.8, end: 10 });
  });

  it('should leave audio without a long silence, or without segments, as it is', () => {
    const pcm = new Int16Array(5 * RATE);
    expect(
      packSilences(
        pcm,
        [
          { start: 1, end: 2 },
          { start: 2.5, end: 4 },
        ],
        OPTIONS,
      ),
    ).toBeNull();
    expect(packSilences(pcm, undefined, OPTIONS)).toBeNull();
  });
});

describe('unpacking the words', () => {
  const spans = packSpans(
    [
      { start: 1, end: 2 },
      { start: 6, end: 7 },
    ],
    8 * RATE,
    OPTIONS,
  )!;

  it('should put each word back at the time it was said', () => {
    expect(unpackWord(spans, word(1.2, 1.6))).toMatchObject({ start: 1.2, end: 1.6 });
    expect(unpackWord(spans, word(3.1, 3.5))).toMatchObject({ start: 6.1, end: 6.5 });
  });

  it('should not stretch a word over the silence cut at a seam', () => {
    // Mostly after the seam (2.5 s packed = 5.5 s said): its start is held at the seam.
    expect(unpackWord(spans, word(2.4, 3))).toMatchObject({ start: 5.5, end: 6 });
    // Mostly before it: its end is held there.
    expect(unpackWord(spans, word(2, 2.6))).toMatchObject({ start: 2, end: 2.5 });
  });

  it('should keep the output as it was but for the times', () => {
    const out = unpackOutput(spans, {
      engine: 'faster-whisper',
      words: [word(0.9, 1.3, 'hello'), word(3.2, 3.6, 'again')],
      language: 'en',
      language_probability: 0.9,
      warnings: ['a note'],
    });
    expect(out).toEqual({
      engine: 'faster-whisper',
      words: [word(0.9, 1.3, 'hello'), word(6.2, 6.6, 'again')],
      language: 'en',
      language_probability: 0.9,
      warnings: ['a note'],
    });
  });

  it('should clamp a time to its span', () => {
    expect(originalTime(spans[1], 100)).toBe(8);
    expect(originalTime(spans[1], 0)).toBe(5.5);
  });
});
