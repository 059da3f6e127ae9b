/**
 * @module analytics/speech/readability
 * Flesch–Kincaid grade level (Kincaid et al. 1975, the US Navy formula):
 *   0.39 × (words / sentences) + 11.8 × (syllables / words) − 15.59.
 * Words are lexical tokens (hesitations excluded); sentences come from `splitSentences`;
 * syllables from the `syllable` package (rule-based English counter; at least 1 per word).
 * The grade is clamped at 0: the formula goes negative for very simple text, and a
 * negative school grade means nothing to a reader.
 */
import { syllable } from 'syllable';
import type { Token } from './types';

/** Syllables in one word; at least 1 so digits and odd tokens still weigh as a word. */
export function countSyllables(word: string): number {
  return Math.max(1, syllable(word));
}

/**
 * Flesch–Kincaid grade of sentences of tokens; 0 when there are no lexical words.
 *
 * @example
 * fleschKincaidGrade([[...tokens of "The cat sat on the mat."]]) // → 0 (raw −1.45, clamped)
 */
export function fleschKincaidGrade(sentences: readonly (readonly Token[])[]): number {
  const lexical = sentences.map((s) => s.filter((t) => !t.hesitation)).filter((s) => s.length > 0);
  const words = lexical.flat();
  if (words.length === 0) return 0;
  const syllables = words.reduce((sum, t) => sum + countSyllables(t.norm), 0);
  const grade = 0.39 * (words.length / lexical.length) + 11.8 * (syllables / words.length) - 15.59;
  return Math.max(0, grade);
}
