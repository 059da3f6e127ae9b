/**
 * Builders of hand-made recogniser output for the speech tests.
 */
import type { TimedWord } from '../../../../../src/contract/media';
import { buildTokens } from '../../../../../src/analytics/speech/tokens';

export interface Timing {
  /** Start of the first word, s. Default 0. */
  start?: number;
  /** Word duration, s. Default 0.3. */
  dur?: number;
  /** Gap between words, s. Default 0.05 (connected speech: no boundary). */
  gap?: number;
}

/**
 * Words of `text` laid out evenly. A token `/1.2/` inserts an extra 1.2 s of silence there.
 * Punctuation stays attached (as Whisper writes it).
 */
export function wordsOf(text: string, { start = 0, dur = 0.3, gap = 0.05 }: Timing = {}): TimedWord[] {
  const out: TimedWord[] = [];
  let t = start;
  for (const w of text.split(/\s+/).filter(Boolean)) {
    const pause = /^\/([\d.]+)\/$/.exec(w);
    if (pause) {
      t += Number(pause[1]);
      continue;
    }
    out.push({ word: w, start: t, end: t + dur, confidence: 0.9 });
    t += dur + gap;
  }
  return out;
}

export const tokensOf = (text: string, timing?: Timing) => buildTokens(wordsOf(text, timing));
