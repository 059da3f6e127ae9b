/**
 * @module containers/media/engines/render/script-words
 * The script's own words for the caption files of speech synthesized from it that the aligner
 * does not time (its acoustic model is English): the recogniser's transcript gives the times, the
 * script the words. Whisper writes espeak-ng's Spanish "Buenos días a todos" as "Bueno, si asa
 * todos", and espeak-ng's Russian far worse; the user wrote the script, the speech says it, and the
 * caption files should say what it says. The two word lists are matched by edit distance (a
 * substitution costs the share of letters that differ), each script word takes the times of the
 * word it met, and a script word the recogniser left out shares the gap between its neighbours, or
 * a neighbour's span where there is no gap.
 */
import type { TimedWord } from '../../../../src/contract/media.js';

/**
 * Most times more words one list may have than the other for the script to stand for the speech.
 * The speech was synthesized from the script, so it says it; but a script written without spaces
 * (Japanese, Chinese) is one "word" at whitespace, which the recogniser's pieces caption better,
 * and a speech transcribed only in part (`MAX_TRANSCRIBE_SEC`) has fewer words than its script.
 */
export const MAX_WORD_COUNT_RATIO = 2;

/** Pure: a word as both lists are compared (lower case, no accents, letters and digits only). */
export const wordKey = (word: string): string =>
  word
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');

/** Pure: the script's words: split at whitespace, without those of no letter or digit ("—"). */
export const scriptWords = (script: string): string[] => script.split(/\s+/).filter((w) => wordKey(w) !== '');

/**
 * Pure: the script's words (`scriptWords`) timed by the recogniser's `heard` words, or
 * null when the two counts are more than MAX_WORD_COUNT_RATIO apart.
 * @example scriptTimedBy('Buenos días a todos', [{ word: 'Bueno,', start: 0, end: 0.4, confidence: 0.9 }, …]) // [{ word: 'Buenos', start: 0, end: 0.4, … }, …]
 */
export function scriptTimedBy(script: string, heard: readonly TimedWord[]): TimedWord[] | null {
  const words = scriptWords(script);
  if (words.length === 0 || heard.length === 0) return null;
  const ratio = words.length / heard.length;
  if (ratio > MAX_WORD_COUNT_RATIO || ratio < 1 / MAX_WORD_COUNT_RATIO) return null;
  const pairs = matchWords(
    words.map(wordKey),
    heard.map((w) => wordKey(w.word)),
  );
  const timed: Array<TimedWord | undefined> = words.map((word, i) => {
    const j = pairs[i];
    return j === undefined ? undefined : { ...heard[j], word };
  });
  return fillGaps(words, timed);
}

/**
 * Pure: for each word of `a`, the index of the word of `b` it meets in a least-cost alignment,
 * undefined when it is deleted. Deleting or inserting a word costs 1, substituting one the share
 * of its letters that differ (`letterDistance`): "Hello" meets "Hallo", not a neighbour.
 */
export function matchWords(a: readonly string[], b: readonly string[]): Array<number | undefined> {
  const sub = (i: number, j: number) => letterDistance(a[i], b[j]);
  const cost: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      cost[i][j] = Math.min(cost[i - 1][j - 1] + sub(i - 1, j - 1), cost[i - 1][j] + 1, cost[i][j - 1] + 1);
  const pairs = new Array<number | undefined>(a.length).fill(undefined);
  const same = (x: number, y: number) => Math.abs(x - y) < 1e-9;
  let i = a.length;
  let j = b.length;
  while (i > 0 && j > 0) {
    if (same(cost[i][j], cost[i - 1][j - 1] + sub(i - 1, j - 1))) pairs[--i] = --j;
    else if (same(cost[i][j], cost[i - 1][j] + 1)) i--;
    else j--;
  }
  return pairs;
}

/**
 * Pure: the share of letters by which two words differ (their edit distance over the longer one's
 * length), 0 for equal words, 1 for words with nothing in common.
 * @example letterDistance('hello', 'hallo') // 0.2
 */
export function letterDistance(a: string, b: string): number {
  if (a === b) return 0;
  const x = [...a];
  const y = [...b];
  let row = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const next = [i];
    for (let j = 1; j <= y.length; j++)
      next[j] = Math.min(row[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1), row[j] + 1, next[j - 1] + 1);
    row = next;
  }
  return row[y.length] / Math.max(x.length, y.length, 1);
}

/** Shortest stretch of a gap one untimed word is given, seconds; in less it shares a neighbour's. */
export const MIN_WORD_SEC = 0.1;

/**
 * Pure: the untimed words share the gap between their timed neighbours evenly; where that gap is
 * too short (a word the recogniser ran into its neighbour, or one after its last word), they share
 * the neighbour's own span with it.
 */
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
    const run = words.slice(i, k);
    const before = out.at(-1);
    const after = timed[k];
    const from = before?.end ?? after!.start;
    const to = after?.start ?? from;
    if (to - from >= MIN_WORD_SEC * run.length) out.push(...spread(run, from, to));
    else if (before) {
      const shared = spread([before.word, ...run], before.start, before.end);
      out.splice(-1, 1, { ...shared[0], confidence: before.confidence }, ...shared.slice(1));
    } else {
      const shared = spread([...run, after!.word], after!.start, after!.end);
      out.push(...shared.slice(0, -1), { ...shared.at(-1)!, confidence: after!.confidence });
      i = k; // the next word is placed
      continue;
    }
    i = k - 1;
  }
  return out;
}

/** Pure: `words` one after another over [from, to], in equal parts, with no confidence of their own. */
function spread(words: readonly string[], from: number, to: number): TimedWord[] {
  const step = (to - from) / words.length;
  return words.map((word, m) => ({
    word,
    start: from + step * m,
    end: from + step * (m + 1),
    confidence: 0,
  }));
}
