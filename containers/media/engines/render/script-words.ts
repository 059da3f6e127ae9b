/**
 * @module containers/media/engines/render/script-words
 * The script's own words for the caption files of speech synthesized from it in a language the
 * aligner does not hear (its acoustic model is English): the recogniser's transcript gives the
 * times, the script the words. Whisper writes espeak-ng's Spanish "Buenos días a todos" as "Bueno,
 * si asa todos"; the user wrote the script, and the caption files should say what it says. The
 * two word lists are matched by edit distance (equal words, then substitutions), each script word
 * takes the times of the word it met, and a script word the recogniser left out shares the gap
 * between its neighbours.
 */
import type { TimedWord } from '../../../../src/contract/media.js';

/**
 * Fewest of the script's words the recogniser must have heard as written for the script to
 * stand for the speech: below it the speech does not say the script (or the recogniser heard
 * another language), and the transcript is kept.
 */
export const MIN_SCRIPT_WORDS_HEARD = 0.5;

/** Pure: a word as both lists are compared (lower case, no accents, letters and digits only). */
export const wordKey = (word: string): string =>
  word
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');

/**
 * Pure: the script's words (split at whitespace) timed by the recogniser's `heard` words, or
 * null when fewer than MIN_SCRIPT_WORDS_HEARD of them were heard as written.
 * @example scriptTimedBy('Buenos días a todos', [{ word: 'Bueno,', start: 0, end: 0.4, confidence: 0.9 }, …]) // [{ word: 'Buenos', start: 0, end: 0.4, … }, …]
 */
export function scriptTimedBy(script: string, heard: readonly TimedWord[]): TimedWord[] | null {
  const words = script.split(/\s+/).filter((w) => wordKey(w) !== '');
  if (words.length === 0 || heard.length === 0) return null;
  const pairs = matchWords(
    words.map(wordKey),
    heard.map((w) => wordKey(w.word)),
  );
  const same = pairs.filter((j, i) => j !== undefined && wordKey(words[i]) === wordKey(heard[j].word));
  if (same.length < MIN_SCRIPT_WORDS_HEARD * words.length) return null;
  const timed: Array<TimedWord | undefined> = words.map((word, i) => {
    const j = pairs[i];
    return j === undefined ? undefined : { ...heard[j], word };
  });
  return fillGaps(words, timed);
}

/**
 * Pure: for each word of `a`, the index of the word of `b` it meets in a least-edits alignment
 * (equal, or substituted), undefined when it is deleted.
 */
export function matchWords(a: readonly string[], b: readonly string[]): Array<number | undefined> {
  const cost: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      cost[i][j] = Math.min(
        cost[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
        cost[i - 1][j] + 1,
        cost[i][j - 1] + 1,
      );
  const pairs = new Array<number | undefined>(a.length).fill(undefined);
  let i = a.length;
  let j = b.length;
  while (i > 0 && j > 0) {
    if (cost[i][j] === cost[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)) pairs[--i] = --j;
    else if (cost[i][j] === cost[i - 1][j] + 1) i--;
    else j--;
  }
  return pairs;
}

/** Pure: the untimed words share the gap between their timed neighbours evenly. */
function fillGaps(words: readonly string[], timed: Array<TimedWord | undefined>): TimedWord[] {
  const out: TimedWord[] = [];
  for (let i = 0; i < words.length; i++) {
    const own = timed[i];
    if (own) {
      out.push(own);
      continue;
    }
    let k = i;
    while (k < words.length && !timed[k]) k++;
    const from = out.at(-1)?.end ?? timed[k]?.start ?? 0;
    const to = Math.max(from, timed[k]?.start ?? from);
    const step = (to - from) / (k - i);
    for (let m = i; m < k; m++)
      out.push({
        word: words[m],
        start: from + step * (m - i),
        end: from + step * (m - i + 1),
        confidence: 0,
      });
    i = k - 1;
  }
  return out;
}
