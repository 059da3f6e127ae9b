/**
 * @module analytics/speech/style
 * One speaking-style label from pace, pauses, pitch variation and readability. The rules are
 * checked in order and the first that matches wins (coaching priorities: delivery problems
 * before descriptive notes).
 *
 * | label | rule |
 * |---|---|
 * | `insufficient_speech` | < 10 lexical words or < 5 s of speaking time |
 * | `rushed` | > 170 WPM and < 6 pauses per minute |
 * | `hesitant` | ≥ 4 long pauses per minute, or < 110 WPM with pauses ≥ 35 % of speaking time |
 * | `monotone` | pitch variation < 2 semitones (needs prosody) |
 * | `fast` | > 170 WPM |
 * | `slow` | < 110 WPM |
 * | `expressive` | pitch variation ≥ 4 semitones |
 * | `complex` | Flesch–Kincaid grade > 12 |
 * | `conversational` | none of the above |
 */
import { bandInLanguage } from '../../contract/speech-rate';

/** Pace bands, WPM. ~150 WPM is average conversational English (NCVS); presentation coaches
 * recommend roughly 110–170 (below sounds laboured, above hard to follow). */
export const SLOW_WPM = 110;
export const FAST_WPM = 170;

/**
 * Pure: the pace band (WPM) for speech in `language`: English's, each end scaled by how many words
 * the language says for each English word at the same pace (contract/speech-rate: measured oral
 * reading rates); English's as it is for a language whose rate is unknown.
 * @example paceBandFor('de') // [86, 133]
 */
export function paceBandFor(language?: string | null): [number, number] {
  return bandInLanguage([SLOW_WPM, FAST_WPM], language);
}
/** Pitch-variation bands, semitones (std-dev). Hincks (2005) measured liveliness as the pitch
 * variation quotient (std/mean F0); her monotone speakers sat near 0.1 and lively ones ≥ 0.2,
 * i.e. about 1.7 and 3.2 semitones. We round to 2 and 4. */
export const MONOTONE_ST = 2;
export const EXPRESSIVE_ST = 4;
/** Beyond US grade 12 text reads as college level (Flesch–Kincaid). */
export const COMPLEX_GRADE = 12;
/** Fewer than this many pauses per minute at a fast pace leaves no breathing breaks (coaching rule of thumb). */
export const RUSHED_PAUSES_PER_MIN = 6;
export const HESITANT_LONG_PAUSES_PER_MIN = 4;
export const HESITANT_PAUSE_FRACTION = 0.35;
export const MIN_STYLE_WORDS = 10;
export const MIN_STYLE_SEC = 5;

export const STYLE_LABELS = [
  'insufficient_speech',
  'rushed',
  'hesitant',
  'monotone',
  'fast',
  'slow',
  'expressive',
  'complex',
  'conversational',
] as const;
export type StyleLabel = (typeof STYLE_LABELS)[number];

export interface StyleFeatures {
  wordCount: number;
  speakingTimeSec: number;
  /** Null when the rate is not comparable across languages (a language written without spaces). */
  wordsPerMinute: number | null;
  /** The slow and fast ends of the pace band (`paceBandFor` of the language); English's by default. */
  paceBandWpm?: readonly [number, number];
  pauses: number;
  longPauses: number;
  pauseTimeSec: number;
  /** Semitone std-dev of pitch, null without (enough) prosody. */
  pitchStdSt: number | null;
  readabilityGrade: number;
}

/** The first matching label of the table in the module header. */
export function classifyStyle(f: StyleFeatures): StyleLabel {
  if (f.wordCount < MIN_STYLE_WORDS || f.speakingTimeSec < MIN_STYLE_SEC) return 'insufficient_speech';
  const minutes = f.speakingTimeSec / 60;
  const pausesPerMin = f.pauses / minutes;
  const longPerMin = f.longPauses / minutes;
  const pauseFraction = f.pauseTimeSec / f.speakingTimeSec;
  const [slowWpm, fastWpm] = f.paceBandWpm ?? [SLOW_WPM, FAST_WPM];
  const fast = f.wordsPerMinute !== null && f.wordsPerMinute > fastWpm;
  const slow = f.wordsPerMinute !== null && f.wordsPerMinute < slowWpm;
  if (fast && pausesPerMin < RUSHED_PAUSES_PER_MIN) return 'rushed';
  if (longPerMin >= HESITANT_LONG_PAUSES_PER_MIN || (slow && pauseFraction >= HESITANT_PAUSE_FRACTION)) {
    return 'hesitant';
  }
  if (f.pitchStdSt !== null && f.pitchStdSt < MONOTONE_ST) return 'monotone';
  if (fast) return 'fast';
  if (slow) return 'slow';
  if (f.pitchStdSt !== null && f.pitchStdSt >= EXPRESSIVE_ST) return 'expressive';
  if (f.readabilityGrade > COMPLEX_GRADE) return 'complex';
  return 'conversational';
}
