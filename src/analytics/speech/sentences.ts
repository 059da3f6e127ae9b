/**
 * @module analytics/speech/sentences
 * Sentence boundaries for readability and sentence-level sentiment. Recognisers differ:
 * Whisper punctuates, pocketsphinx never does. So:
 * - if any word ends with `. ! ? …`, punctuation decides;
 * - otherwise a sentence ends at every pause ≥ `longPauseSec`, and any run longer than
 *   `maxSentenceWords` is cut into equal parts of at most that many words. 20 words is the
 *   upper end of the plain-English guideline of 15–20 words per sentence (Cutts, *Oxford Guide
 *   to Plain English*); without the cut a pause-free minute would be one 150-word "sentence".
 */
import type { Pause } from './pauses';
import type { Token } from './types';

/** Default longest sentence of an unpunctuated transcript, words. */
export const MAX_SENTENCE_WORDS = 20;

export interface SentenceOptions {
  /** See {@link MAX_SENTENCE_WORDS}. */
  maxSentenceWords?: number;
  /** Pauses at least this long end a sentence in unpunctuated transcripts. Default 1.0 s. */
  longPauseSec?: number;
}

/** Splits tokens (hesitations included, callers filter) into sentences. */
export function splitSentences(
  tokens: readonly Token[],
  pauses: readonly Pause[],
  { maxSentenceWords = MAX_SENTENCE_WORDS, longPauseSec = 1.0 }: SentenceOptions = {},
): Token[][] {
  if (tokens.length === 0) return [];
  const punctuated = tokens.some((t) => t.sentenceEnd);
  const out: Token[][] = [];
  let cur: Token[] = [];
  if (punctuated) {
    for (const t of tokens) {
      cur.push(t);
      if (t.sentenceEnd) (out.push(cur), (cur = []));
    }
    if (cur.length) out.push(cur);
    return out;
  }
  const breaks = pauses.filter((p) => p.duration >= longPauseSec - 1e-9);
  let b = 0;
  for (const t of tokens) {
    while (b < breaks.length && breaks[b].end <= t.start) {
      if (cur.length) (out.push(cur), (cur = []));
      b++;
    }
    cur.push(t);
  }
  if (cur.length) out.push(cur);
  const max = Math.max(1, Math.floor(maxSentenceWords));
  return out.flatMap((s) => {
    const parts = Math.ceil(s.length / max);
    if (parts <= 1) return [s];
    const size = Math.ceil(s.length / parts);
    return Array.from({ length: parts }, (_, k) => s.slice(k * size, (k + 1) * size)).filter((p) => p.length);
  });
}
