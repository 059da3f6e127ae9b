import { describe, expect, it } from 'vitest';
import {
  decodeOrder,
  planUtterances,
  speechSecondsIn,
  uncoveredSpeechSec,
} from '../../../../../../containers/media/engines/asr/segments';
import { SKIPPED_HEAD_SPEECH, SKIPPED_HEAD_UTTERANCE } from './skipped-head.fixture';

const silence = (seconds: number) => new Int16Array(Math.round(seconds * 16_000));
const rounded = (segments: Array<{ start: number; end: number }>) =>
  segments.map((s) => ({ start: Math.round(s.start * 100) / 100, end: Math.round(s.end * 100) / 100 }));

describe('planUtterances', () => {
  it('should pad each stretch of speech, merge close ones and keep to the audio', () => {
    const pcm = silence(10);
    const speech = [
      { start: 0.1, end: 2 },
      { start: 2.2, end: 3 },
      { start: 6, end: 9.9 },
    ];
    expect(rounded(planUtterances(pcm, speech))).toEqual([
      { start: 0, end: 3.3 },
      { start: 5.7, end: 10 },
    ]);
  });

  it('should take more audio before speech than after it when asked (a soft onset the VAD starts late on)', () => {
    const pcm = silence(10);
    const speech = [
      { start: 2, end: 4 },
      { start: 6, end: 8 },
    ];
    expect(rounded(planUtterances(pcm, speech, { leadSec: 0.5, paddingSec: 0.2 }))).toEqual([
      { start: 1.5, end: 4.2 },
      { start: 5.5, end: 8.2 },
    ]);
    // The gap between them is judged after both paddings: 5.5 − 4.2 = 1.3 s.
    expect(planUtterances(pcm, speech, { leadSec: 0.5, paddingSec: 0.2, mergeGapSec: 1.3 })).toHaveLength(1);
  });

  it('should split a long stretch so that no utterance is longer than the limit', () => {
    const plan = planUtterances(silence(40), [{ start: 1, end: 39 }], { maxUtteranceSec: 10 });
    expect(plan.length).toBeGreaterThanOrEqual(4);
    for (const u of plan) expect(u.end - u.start).toBeLessThanOrEqual(10 + 1e-9);
    expect(plan[0].start).toBeCloseTo(0.7);
    expect(plan.at(-1)!.end).toBeCloseTo(39.3);
  });

  it('should measure the speech inside an utterance, or all of it when the speech is not known', () => {
    const speech = [
      { start: 1, end: 3 },
      { start: 9, end: 12 },
    ];
    expect(speechSecondsIn({ start: 0, end: 10 }, speech)).toBe(3);
    expect(speechSecondsIn({ start: 4, end: 8 }, speech)).toBe(0);
    expect(speechSecondsIn({ start: 0.5, end: 2.5 }, undefined)).toBe(2);
  });
});

describe('uncoveredSpeechSec', () => {
  const utterance = SKIPPED_HEAD_UTTERANCE;
  const speech = SKIPPED_HEAD_SPEECH;
  const word = (start: number, end: number) => ({ start, end });

  it('should count the speech before the first word that no word is near', () => {
    const words = [word(2.93, 3.3), word(3.49, 6.5), word(7.81, 9.97)];
    // 0.39-2.43 is farther than 0.5 s from "Plus" at 2.93.
    expect(uncoveredSpeechSec(utterance, speech, words, 0.5)).toBeCloseTo(2.04, 2);
  });

  it('should count nothing when every stretch of speech has words near it', () => {
    const words = [word(0.19, 2.5), word(3.27, 6.5), word(7.75, 9.97)];
    expect(uncoveredSpeechSec(utterance, speech, words, 0.5)).toBe(0);
  });

  it('should count speech in a gap between words, and not the pauses the VAD left out', () => {
    const words = [word(0.4, 2.7), word(8, 10.2)];
    // The gap 3.2-7.5 holds 1.98 + 1.40 s of speech; the 0.61 s pause inside it is no speech.
    expect(uncoveredSpeechSec(utterance, speech, words, 0.5)).toBeCloseTo(3.38, 2);
  });

  it('should count the whole span when no words were written, or no speech was given', () => {
    expect(uncoveredSpeechSec({ start: 0, end: 4 }, undefined, [], 0.5)).toBe(4);
    expect(uncoveredSpeechSec({ start: 0, end: 4 }, undefined, [word(1, 2)], 0.5)).toBe(2);
  });
});

describe('decodeOrder', () => {
  // A German minute's plan: a short first utterance, then longer ones.
  const plan = [
    { start: 0.3, end: 3.1 },
    { start: 4.6, end: 18.1 },
    { start: 19.4, end: 36 },
    { start: 37.2, end: 60 },
  ];

  it('should give the longest utterances first, so that no long one is decoded alone at the end', () => {
    expect(decodeOrder(plan)).toEqual([3, 2, 1, 0]);
  });

  it('should put the window the detection already encoded first', () => {
    expect(decodeOrder(plan, plan[0])).toEqual([0, 3, 2, 1]);
  });

  it('should keep time order between utterances of the same length, and give nothing for no utterance', () => {
    expect(
      decodeOrder([
        { start: 0, end: 5 },
        { start: 6, end: 11 },
        { start: 12, end: 13 },
      ]),
    ).toEqual([0, 1, 2]);
    expect(decodeOrder([])).toEqual([]);
  });
});
