/**
 * @module analytics/delivery/repetitions
 * Immediate repetitions of a word or phrase ("I I think", "we need to we need to"): the
 * restarts that coaching tools report as repetitive language. Hesitation sounds between the
 * copies are skipped ("I um I think" repeats "I").
 */
import type { Token } from '../speech/types';

/** Longest repeated phrase looked for, words. */
export const MAX_PHRASE_WORDS = 4;
/**
 * Words English doubles grammatically ("I knew that that was", "had had", "what it is is");
 * repeated once they are not counted. Three or more copies still are.
 */
export const GRAMMATICAL_DOUBLES: ReadonlySet<string> = new Set(['that', 'had', 'is']);

export interface RepetitionFound {
  /** The repeated phrase, lower case. */
  text: string;
  /** Copies in a row (≥ 2). */
  count: number;
  /** Start of the first copy, end of the last copy, s. */
  start: number;
  end: number;
  /** Token indices of every copy but the last (the restarts; the last copy carries on). */
  restartTokens: number[];
}

/**
 * Every immediate repetition in time order, scanning left to right; at each position the
 * shortest phrase that repeats wins ("I I I" is one instance of "i" × 3), and the scan resumes
 * after the last copy. A copy ending a sentence (`.`, `?`, `!`) is not repeated by the next
 * sentence's opening.
 *
 * @example
 * detectRepetitions(buildTokens(words)) // "we need to we need to act" → [{ text: 'we need to', count: 2, ... }]
 */
export function detectRepetitions(tokens: readonly Token[]): RepetitionFound[] {
  const words = tokens.filter((t) => !t.hesitation && t.norm.length > 0);
  const out: RepetitionFound[] = [];
  const same = (a: number, b: number, n: number): boolean => {
    for (let k = 0; k < n; k++) if (words[a + k].norm !== words[b + k].norm) return false;
    return !words[a + n - 1].sentenceEnd;
  };
  let i = 0;
  while (i < words.length) {
    let found: { n: number; count: number } | null = null;
    for (let n = 1; n <= MAX_PHRASE_WORDS && !found; n++) {
      let count = 1;
      while (i + (count + 1) * n <= words.length && same(i + (count - 1) * n, i + count * n, n)) count++;
      if (count < 2) continue;
      if (n === 1 && count === 2 && GRAMMATICAL_DOUBLES.has(words[i].norm)) continue;
      found = { n, count };
    }
    if (!found) {
      i++;
      continue;
    }
    const { n, count } = found;
    const last = i + count * n - 1;
    out.push({
      text: words
        .slice(i, i + n)
        .map((w) => w.norm)
        .join(' '),
      count,
      start: words[i].start,
      end: words[last].end,
      restartTokens: words.slice(i, i + (count - 1) * n).map((w) => w.index),
    });
    i = last + 1;
  }
  return out;
}
