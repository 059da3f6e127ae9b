/**
 * Repetitions, pace over time and the assembled `delivery` object on hand-made recogniser output.
 */
import { describe, expect, it } from 'vitest';
import { analyzeDelivery } from '../../../../../src/analytics/delivery/analyze';
import { paceDelivery } from '../../../../../src/analytics/delivery/pace';
import { detectRepetitions } from '../../../../../src/analytics/delivery/repetitions';
import { analyzeSpeech } from '../../../../../src/analytics/speech/analyze';
import { Delivery } from '../../../../../src/contract/delivery';
import { tokensOf, wordsOf } from '../speech/helpers';

const found = (text: string) => detectRepetitions(tokensOf(text)).map((r) => [r.text, r.count]);

describe('detectRepetitions', () => {
  it('should find a repeated word and a repeated phrase with their times', () => {
    const reps = detectRepetitions(tokensOf('I I think we need to we need to act now'));
    expect(reps.map((r) => [r.text, r.count])).toEqual([
      ['i', 2],
      ['we need to', 2],
    ]);
    // Words of 0.3 s every 0.35 s: "we" #4 starts at 1.05, the second "to" #8 ends at 3.1.
    expect(reps[1].start).toBeCloseTo(1.05, 6);
    expect(reps[1].end).toBeCloseTo(3.1, 6);
    expect(reps[1].restartTokens).toEqual([3, 4, 5]);
  });
  it('should count three copies once, and skip hesitations between copies', () => {
    expect(found('I I I think so')).toEqual([['i', 3]]);
    expect(found('I um I think so')).toEqual([['i', 2]]);
  });
  it('should not count grammatical doubles, different words or a sentence boundary', () => {
    expect(found('I knew that that was wrong and he had had enough')).toEqual([]);
    expect(found('we went to the shop')).toEqual([]);
    expect(found('Stop. Stop the car')).toEqual([]);
    expect(found('that that that is all')).toEqual([['that', 3]]);
  });
});

describe('restarts are not content words', () => {
  it('should list only the copy that carries on in pos', () => {
    const speech = analyzeSpeech({
      words: wordsOf('we need to we need to act now'),
      speech_segments: [],
      duration_sec: 4,
    });
    const need = speech.pos.VERB.find((e) => e.word === 'need');
    expect(need?.timestamps).toHaveLength(1);
    expect(need?.timestamps[0].start).toBeCloseTo(1.4, 6);
  });
});

describe('paceDelivery', () => {
  it('should give one window for short speech and flag a fast stretch in a longer talk', () => {
    // 10 words in 3.45 s → 173.9 WPM: above the 170 band.
    const short = paceDelivery(tokensOf('one two three four five six seven eight nine ten'));
    expect(short.windows).toHaveLength(1);
    expect(short.windows[0].wpm).toBeCloseTo((10 / 3.45) * 60, 0);
    expect(short.outside_band).toEqual([{ ...short.windows[0], kind: 'fast' }]);

    // 30 s at 150 WPM (0.4 s per word), then 30 s at 240 WPM (0.25 s per word).
    const calm = Array.from({ length: 75 }, (_, i) => `w${i}`).join(' ');
    const fast = Array.from({ length: 120 }, (_, i) => `f${i}`).join(' ');
    const words = [
      ...wordsOf(calm, { dur: 0.35, gap: 0.05 }),
      ...wordsOf(fast, { start: 30, dur: 0.2, gap: 0.05 }),
    ];
    const pace = paceDelivery(analyzeDeliveryTokens(words));
    expect(pace.windows[0].wpm).toBeCloseTo(150, -1);
    expect(pace.windows[pace.windows.length - 1].wpm).toBeCloseTo(240, -1);
    expect(pace.outside_band).toHaveLength(1);
    expect(pace.outside_band[0].kind).toBe('fast');
    expect(pace.outside_band[0].start).toBeGreaterThanOrEqual(20);
    expect(pace.outside_band[0].start).toBeLessThanOrEqual(30);
    expect(pace.outside_band[0].end).toBeCloseTo(60, 0);
  });
});

const analyzeDeliveryTokens = (words: ReturnType<typeof wordsOf>) =>
  tokensOf(words.map((w) => w.word).join(' '), {}).map((t, i) => ({
    ...t,
    start: words[i].start,
    end: words[i].end,
  }));

describe('analyzeDelivery', () => {
  it('should pass the contract with and without visual samples, and be empty without words or audio', () => {
    const empty = analyzeDelivery({ words: [] });
    expect(Delivery.parse(empty)).toEqual(empty);
    expect(empty.pitch.median_hz).toBeNull();
    expect(empty.loudness.quiet_stretches).toEqual([]);
    expect(empty.repetitions.count).toBe(0);
    expect(empty.eye_contact).toBeUndefined();
    const withVisual = analyzeDelivery({ words: wordsOf('so so we go'), visual: [] });
    expect(Delivery.parse(withVisual)).toEqual(withVisual);
    expect(withVisual.repetitions.instances).toEqual([{ text: 'so', count: 2, start: 0, end: 0.65 }]);
    expect(withVisual.eye_contact).toEqual({ share: null, samples_with_face: 0, longest_look_away: null });
  });

  it('should count no repetition and judge no pace band in a language written without spaces', () => {
    // Whisper's pieces of Chinese: "常常" (often) is one word of two pieces, not a repetition.
    const words = wordsOf('我在 這 一個 獎 堂 中, 便 去 常 常 隨 喜 我的 同 學 們 的 拍 手 和 賀 彩。', {
      dur: 0.22,
      gap: 0.06,
    });
    const zh = analyzeDelivery({ words, language: 'zh' });
    expect(Delivery.parse(zh)).toEqual(zh);
    expect(zh.repetitions).toEqual({ count: 0, instances: [] });
    expect(zh.pace.windows[0].wpm).toBeGreaterThan(170);
    expect(zh.pace.outside_band).toEqual([]);
    // The same pieces taken for words of a spaced language: a repetition and a fast stretch.
    const spaced = analyzeDelivery({ words, language: 'ko' });
    expect(spaced.repetitions.count).toBe(1);
    expect(spaced.pace.outside_band.map((o) => o.kind)).toEqual(['fast']);
  });
});
