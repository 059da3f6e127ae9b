/**
 * @module analytics/speech/emotion
 * One overall emotion label on Russell's (1980) circumplex: valence from the words,
 * arousal from the voice.
 *
 * Valence: mean sentence VADER compound (`overallValence`); positive ≥ 0.05, negative ≤ −0.05,
 * the thresholds VADER's authors recommend (Hutto & Gilbert 2014).
 * Arousal: each available cue votes +1 (high), 0 or −1 (low); the mean vote ≥ 0.5 is high,
 * ≤ −0.5 low, else medium (medium when no cue is available):
 * - pitch variation (semitone std-dev): ≥ 4 high, < 2 low (same bands as style, Hincks 2005);
 * - loudness variation (std-dev of voiced-frame energy): ≥ 10 dB high, < 4 dB low
 *   (engineering choice, gain-independent; to be calibrated on real recordings);
 * - pace: > 170 WPM high, < 110 low (same bands as style, scaled to the language: `paceBandFor`).
 *
 * | | low arousal | medium | high arousal |
 * |---|---|---|---|
 * | positive | `content` | `positive` | `enthusiastic` |
 * | neutral | `calm` | `neutral` | `energetic` |
 * | negative | `sad` | `negative` | `agitated` |
 */
import { EXPRESSIVE_ST, FAST_WPM, MONOTONE_ST, SLOW_WPM } from './style';

export const POSITIVE_VALENCE = 0.05;
export const NEGATIVE_VALENCE = -0.05;
export const HIGH_ENERGY_STD_DB = 10;
export const LOW_ENERGY_STD_DB = 4;

export const EMOTION_LABELS = [
  'content',
  'positive',
  'enthusiastic',
  'calm',
  'neutral',
  'energetic',
  'sad',
  'negative',
  'agitated',
] as const;
export type EmotionLabel = (typeof EMOTION_LABELS)[number];

export interface EmotionFeatures {
  /** Mean sentence compound, −1..1. */
  valence: number;
  pitchStdSt: number | null;
  energyStdDb: number | null;
  /** Null when there is too little speech to judge pace. */
  wordsPerMinute: number | null;
  /** The slow and fast ends of the pace band (`paceBandFor` of the language); English's by default. */
  paceBandWpm?: readonly [number, number];
}

export type Arousal = 'low' | 'medium' | 'high';

const vote = (x: number | null, low: number, high: number): number | null =>
  x === null || !Number.isFinite(x) ? null : x >= high ? 1 : x < low ? -1 : 0;

/** Arousal from the mean vote of the available cues. */
export function arousalOf(f: EmotionFeatures): Arousal {
  const [slowWpm, fastWpm] = f.paceBandWpm ?? [SLOW_WPM, FAST_WPM];
  const votes = [
    vote(f.pitchStdSt, MONOTONE_ST, EXPRESSIVE_ST),
    vote(f.energyStdDb, LOW_ENERGY_STD_DB, HIGH_ENERGY_STD_DB),
    f.wordsPerMinute === null ? null : f.wordsPerMinute > fastWpm ? 1 : f.wordsPerMinute < slowWpm ? -1 : 0,
  ].filter((v): v is number => v !== null);
  if (votes.length === 0) return 'medium';
  const mean = votes.reduce((a, b) => a + b, 0) / votes.length;
  return mean >= 0.5 ? 'high' : mean <= -0.5 ? 'low' : 'medium';
}

const GRID: Record<'positive' | 'neutral' | 'negative', Record<Arousal, EmotionLabel>> = {
  positive: { low: 'content', medium: 'positive', high: 'enthusiastic' },
  neutral: { low: 'calm', medium: 'neutral', high: 'energetic' },
  negative: { low: 'sad', medium: 'negative', high: 'agitated' },
};

/** The label of the grid in the module header. */
export function classifyEmotion(f: EmotionFeatures): EmotionLabel {
  const valence =
    f.valence >= POSITIVE_VALENCE ? 'positive' : f.valence <= NEGATIVE_VALENCE ? 'negative' : 'neutral';
  return GRID[valence][arousalOf(f)];
}
