import { describe, expect, it } from 'vitest';
import { speechSegmentsFromProbabilities } from './segments.js';

const FRAME_SEC = 0.032;
/** Probabilities from a pattern string: '#' speech (0.9), '-' silence (0.05), '~' in between (0.4). */
function frames(pattern: string): number[] {
  return [...pattern].map((c) => (c === '#' ? 0.9 : c === '~' ? 0.4 : 0.05));
}
const total = (pattern: string) => pattern.length * FRAME_SEC;
const noPad = { padMs: 0 };

describe('speechSegmentsFromProbabilities', () => {
  it('should find nothing in silence', () => {
    const p = frames('-'.repeat(100));
    expect(speechSegmentsFromProbabilities(p, FRAME_SEC, total('-'.repeat(100)))).toEqual([]);
  });

  it('should find nothing in an empty input', () => {
    expect(speechSegmentsFromProbabilities([], FRAME_SEC, 0)).toEqual([]);
  });

  it('should start at the first frame above threshold and end where the silence began', () => {
    const pattern = '-----' + '#'.repeat(20) + '-'.repeat(10);
    expect(speechSegmentsFromProbabilities(frames(pattern), FRAME_SEC, total(pattern), noPad)).toEqual([
      { start: 0.16, end: 0.8 },
    ]);
  });

  it('should keep a pause shorter than minSilenceMs inside one segment', () => {
    const pattern = '#'.repeat(20) + '--' + '#'.repeat(20) + '-'.repeat(10); // 64 ms pause
    const segments = speechSegmentsFromProbabilities(frames(pattern), FRAME_SEC, total(pattern), {
      ...noPad,
      minSilenceMs: 100,
    });
    expect(segments).toEqual([{ start: 0, end: 1.344 }]);
  });

  it('should split at a pause of at least minSilenceMs', () => {
    const pattern = '#'.repeat(20) + '-'.repeat(10) + '#'.repeat(20) + '-'.repeat(10); // 320 ms pause
    const segments = speechSegmentsFromProbabilities(frames(pattern), FRAME_SEC, total(pattern), {
      ...noPad,
      minSilenceMs: 300,
    });
    expect(segments).toEqual([
      { start: 0, end: 0.64 },
      { start: 0.96, end: 1.6 },
    ]);
  });

  it('should not end speech on frames between negThreshold and threshold (hysteresis)', () => {
    const pattern = '#'.repeat(10) + '~'.repeat(20) + '#'.repeat(10) + '-'.repeat(10);
    const segments = speechSegmentsFromProbabilities(frames(pattern), FRAME_SEC, total(pattern), noPad);
    expect(segments).toEqual([{ start: 0, end: 1.28 }]);
  });

  it('should not start speech on frames between the thresholds', () => {
    const pattern = '~'.repeat(40);
    expect(speechSegmentsFromProbabilities(frames(pattern), FRAME_SEC, total(pattern))).toEqual([]);
  });

  it('should drop segments shorter than minSpeechMs', () => {
    const pattern = '---' + '#'.repeat(5) + '-'.repeat(10) + '#'.repeat(20) + '-'.repeat(10); // 160 ms blip
    const segments = speechSegmentsFromProbabilities(frames(pattern), FRAME_SEC, total(pattern), {
      ...noPad,
      minSpeechMs: 250,
    });
    expect(segments).toEqual([{ start: 0.576, end: 1.216 }]);
  });

  it('should keep a short burst by default: a word said alone', () => {
    const pattern = '---' + '#'.repeat(3) + '-'.repeat(20); // 96 ms above the threshold
    expect(speechSegmentsFromProbabilities(frames(pattern), FRAME_SEC, total(pattern), noPad)).toEqual([
      { start: 0.096, end: 0.192 },
    ]);
  });

  it('should close a segment still open at the end of the audio', () => {
    const pattern = '-----' + '#'.repeat(20);
    expect(speechSegmentsFromProbabilities(frames(pattern), FRAME_SEC, 0.8, noPad)).toEqual([
      { start: 0.16, end: 0.8 },
    ]);
  });

  it('should pad segments, clamped to the audio', () => {
    const pattern = '#'.repeat(20) + '-'.repeat(10);
    expect(
      speechSegmentsFromProbabilities(frames(pattern), FRAME_SEC, total(pattern), { padMs: 100 }),
    ).toEqual([{ start: 0, end: 0.74 }]);
  });

  it('should split a gap narrower than two pads in the middle, never overlapping', () => {
    const pattern = '#'.repeat(20) + '----' + '#'.repeat(20) + '-'.repeat(10); // 128 ms gap
    const [a, b] = speechSegmentsFromProbabilities(frames(pattern), FRAME_SEC, total(pattern), {
      padMs: 100,
      minSilenceMs: 100,
    });
    expect(a.end).toBeCloseTo(0.704, 3);
    expect(b.start).toBeCloseTo(0.704, 3);
    expect(b.end).toBeCloseTo(1.508, 3);
  });

  it('should honour a custom threshold', () => {
    const pattern = '~'.repeat(20) + '-'.repeat(10);
    const segments = speechSegmentsFromProbabilities(frames(pattern), FRAME_SEC, total(pattern), {
      ...noPad,
      threshold: 0.3,
    });
    expect(segments).toEqual([{ start: 0, end: 0.64 }]);
  });
});
