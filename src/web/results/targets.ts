/**
 * @module web/results/targets
 * The coaching targets the summary cards and the timeline measure a talk against.
 */
import { bandInLanguage, wordRateRatio } from '../../contract/speech-rate.js';

export const TARGET_WPM_LOW = 130;
export const TARGET_WPM_HIGH = 160;

/** Pure: the pace target for speech in `language`: English's, scaled to its words where its word rate is known (contract/speech-rate). */
export function paceTargetWpm(language: string | null | undefined): [number, number] {
  return bandInLanguage([TARGET_WPM_LOW, TARGET_WPM_HIGH], language);
}

/** Pure: the pace card's target line: whose target it is when the language is not English. */
export function paceTargetText(language: string | null | undefined): string {
  const [low, high] = paceTargetWpm(language);
  if (!language || language === 'en') return `target ${low}–${high}`;
  return wordRateRatio(language) === null
    ? `English's target ${low}–${high}`
    : `target ${low}–${high} (English's ${TARGET_WPM_LOW}–${TARGET_WPM_HIGH} scaled to its words)`;
}
export const MAX_FILLERS_PER_MIN = 3;
export const MAX_LONG_PAUSES_PER_MIN = 2;
export const MIN_GAZE_AT_CAMERA = 0.6;
