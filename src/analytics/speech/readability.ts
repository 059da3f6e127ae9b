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
import type { ReadabilityFormula } from './languages';
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

/** Letters that make a syllable's nucleus in the Latin-script languages of languages.ts. */
const VOWEL_RUN_RE = /[aeiouyàáâãäåæèéêëìíîïòóôõöøùúûüýÿœ]+/gu;
/** French word endings whose "e" is not pronounced: "table", "tables", but not "été". */
const FRENCH_MUTE_E_RE = /[^aeiouyàâäéèêëîïôöùûü]es?$/u;

/**
 * Pure: syllables of a word of a language other than English, counted as runs of vowels
 * (diphthongs such as German "ei", Spanish "ue" are one run, hence one syllable); French drops
 * a mute final e. At least 1. An approximation: hiatus ("día") counts one syllable short.
 * @example countSyllablesIn('Aussichten', 'de') // 3
 */
export function countSyllablesIn(word: string, language: string): number {
  const lower = word.toLowerCase();
  let n = lower.match(VOWEL_RUN_RE)?.length ?? 0;
  if (language === 'fr' && n > 1 && FRENCH_MUTE_E_RE.test(lower)) n--;
  return Math.max(1, n);
}

/**
 * Pure: the reading ease of sentences of tokens by a language's own formula (languages.ts):
 * higher is easier, on the Flesch scale of 0–100 (Gulpease on its own 0–100 scale); null
 * without lexical words.
 */
export function readingEase(
  sentences: readonly (readonly Token[])[],
  formula: ReadabilityFormula,
  language: string,
): number | null {
  const lexical = sentences.map((s) => s.filter((t) => !t.hesitation)).filter((s) => s.length > 0);
  const words = lexical.flat();
  if (words.length === 0) return null;
  if (formula.kind === 'gulpease') {
    const letters = words.reduce((n, t) => n + (t.norm.match(/\p{L}/gu)?.length ?? 0), 0);
    return 89 + (300 * lexical.length - 10 * letters) / words.length;
  }
  const syllables = words.reduce((n, t) => n + countSyllablesIn(t.norm, language), 0);
  return formula.a - formula.b * (words.length / lexical.length) - formula.c * (syllables / words.length);
}

/**
 * School grade at which a text of this reading ease is read easily, from the bands the
 * formulas' authors give: Flesch 1949 ("The Art of Readable Writing": 90–100 5th grade, 80–90
 * 6th, 70–80 7th, 60–70 8th–9th, 50–60 10th–12th, 30–50 college, 0–30 college graduate), which
 * Amstad, Fernández Huerta, Kandel–Moles, Martins and Douma calibrated their formulas to; and
 * Lucisano & Piemontese 1988 for Gulpease (below 80 hard with 5 years of school, below 60 with
 * 8, below 40 with 13). Linear between band centres, so `readability_grade` reads as a grade
 * in every language.
 */
const EASE_TO_GRADE: Record<ReadabilityFormula['kind'], ReadonlyArray<readonly [number, number]>> = {
  flesch: [
    [100, 4.5],
    [95, 5],
    [85, 6],
    [75, 7],
    [65, 8.5],
    [55, 11],
    [40, 14.5],
    [15, 17],
    [0, 18],
  ],
  gulpease: [
    [100, 3],
    [80, 5],
    [60, 8],
    [40, 13],
    [20, 17],
    [0, 18],
  ],
};

/** Pure: the grade of a reading ease (see EASE_TO_GRADE), clamped to the table's ends. */
export function gradeOfEase(ease: number, kind: ReadabilityFormula['kind']): number {
  const table = EASE_TO_GRADE[kind];
  if (ease >= table[0][0]) return table[0][1];
  for (let k = 1; k < table.length; k++) {
    const [e1, g1] = table[k - 1];
    const [e2, g2] = table[k];
    if (ease >= e2) return g1 + ((e1 - ease) / (e1 - e2)) * (g2 - g1);
  }
  return table[table.length - 1][1];
}
