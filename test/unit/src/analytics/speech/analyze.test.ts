import { describe, expect, it } from 'vitest';
import { AUDIO_SECTION_MARKER, POS_TAGS, SpeechSection } from '../../../../../src/contract/result';
import { analyzeSpeech, computeProsody } from '../../../../../src/analytics/speech';
import { wordsOf } from './helpers';

const numbers = (x: unknown): number[] =>
  typeof x === 'number' ? [x] : x && typeof x === 'object' ? Object.values(x).flatMap(numbers) : [];

describe('analyzeSpeech without words', () => {
  it('should return a valid, all-zero section', () => {
    const r = SpeechSection.parse(analyzeSpeech({ words: [], speech_segments: [], duration_sec: 12.5 }));
    expect(r['Audio Section']).toBe(AUDIO_SECTION_MARKER);
    expect(r.transcript).toBe('');
    expect(r.summary).toMatchObject({
      duration_sec: 12.5,
      filler_word_count: 0,
      words_per_minute: 0,
      avg_word_duration: 0,
      speech_to_pause_ratio: 0,
    });
    expect(r.summary.speaking_style).toMatchObject({
      readability_grade: 0,
      lexical_diversity: 0,
      style: 'insufficient_speech',
    });
    expect(r.summary.emotion).toBe('neutral');
    expect(r.filler_words).toEqual({ count: 0, instances: [] });
    expect(r.pauses).toEqual({ total: 0, long_pauses: 0, time_series: [] });
    expect(r.sentiment_words).toEqual([]);
    expect(Object.keys(r.pos).sort()).toEqual([...POS_TAGS].sort());
    expect(Object.values(r.pos).every((v) => v.length === 0)).toBe(true);
  });
  it('should survive only noise markers and a NaN duration', () => {
    const r = analyzeSpeech({
      words: [{ word: '<sil>', start: 0, end: 1, confidence: 1 }],
      speech_segments: [],
      duration_sec: NaN,
    });
    expect(SpeechSection.parse(r).summary.duration_sec).toBe(0);
  });
});

describe('analyzeSpeech on a talk', () => {
  const words = wordsOf(
    'So, um, today I want to talk about our great results. /2.0/ We were, like, really worried last year, you know. ' +
      'But the team worked hard /0.4/ and uh the product is now excellent. /1.2/ I mean, nobody expected this.',
  );
  const pcm = new Float32Array(16000 * 20);
  for (let i = 0; i < pcm.length; i++)
    pcm[i] = 0.3 * Math.sin((2 * Math.PI * (150 + 50 * Math.sin(i / 16000)) * i) / 16000);
  const r = analyzeSpeech(
    {
      words,
      speech_segments: [{ start: 0, end: words.at(-1)!.end }],
      duration_sec: 20,
      prosody: computeProsody(pcm, 16000),
    },
    { longPauseSec: 1.5 },
  );

  it('should satisfy the contract with finite numbers only', () => {
    expect(() => SpeechSection.parse(r)).not.toThrow();
    expect(numbers(r).every(Number.isFinite)).toBe(true);
  });
  it('should keep fillers in the transcript as spoken', () => {
    expect(r.transcript.startsWith('So, um, today I want')).toBe(true);
    expect(r.transcript.split(' ')).toHaveLength(words.length);
  });
  it('should keep the three filler counts equal', () => {
    expect(r.filler_words.instances.map((f) => f.word)).toEqual([
      'so',
      'um',
      'like',
      'you know',
      'uh',
      'i mean',
    ]);
    expect(r.filler_words.count).toBe(6);
    expect(r.summary.filler_word_count).toBe(6);
  });
  it('should report pauses with the configured long threshold', () => {
    expect(r.pauses.time_series.map((p) => [p.duration, p.is_long])).toEqual([
      [2.05, true],
      [0.45, false],
      [1.25, false],
    ]);
    expect(r.pauses).toMatchObject({ total: 3, long_pauses: 1 });
  });
  it('should list sentiment words and tag filler "like" as INTJ', () => {
    expect(r.sentiment_words.map((s) => s.word)).toEqual(
      expect.arrayContaining(['great', 'worried', 'excellent']),
    );
    expect(r.sentiment_words.find((s) => s.word === 'like')).toBeUndefined();
    expect(r.pos.INTJ.map((e) => e.word)).toEqual(expect.arrayContaining(['um', 'uh', 'like', 'so']));
  });
  it('should round times to milliseconds', () => {
    for (const p of r.pauses.time_series) expect(Math.round(p.start * 1000)).toBeCloseTo(p.start * 1000, 6);
  });
});
