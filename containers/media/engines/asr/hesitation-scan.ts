/**
 * @module containers/media/engines/asr/hesitation-scan
 * Hesitations Whisper heard but did not write. Even told by its prompt to keep fillers, Whisper
 * often writes the word after a hesitation and not the "uh" itself, yet it gives the "uh" a fair
 * probability at that step. The worker's scan (`asr_worker.py` `hesitation_scan`: one greedy
 * decode with the same prompt) reports, for each word, the probability of a hesitation sound
 * just before it. Where that is at least SCANNED_HESITATION_MIN, a hesitation word is put into
 * the utterance's words; the filler aligner (`align-fillers.ts`) then times it and counts what it
 * hears there, as for a hesitation Whisper wrote.
 */
import type { TimedWord } from '../../../../src/contract/media.js';
import { isHesitation } from '../../../../src/analytics/speech/tokens.js';
import { alignTokens } from './align-tokens.js';

/** A word of the scan: its text, and the probability of a hesitation sound just before it. */
export interface ScanWord {
  word: string;
  hesitation: number;
}

/**
 * Probability of a hesitation before a word from which one is put there. Chosen on the tune
 * parts only (the `wuw-en` tune callers, the `spliced-en` tune speakers, the shared disfluent
 * clips): 0.1-0.12 found the most for no loss of precision on the real telephone speech; lower
 * cost precision on the spliced set (docs/languages.md).
 */
export const SCANNED_HESITATION_MIN = 0.1;

/** The word a scanned hesitation is written as (the aligner decides which sound it was). */
const SCANNED_HESITATION_WORD = 'uh';

/** Pure: the scan of a worker line, or [] when it has none (or not of the expected shape). */
export function scanOf(value: unknown): ScanWord[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (w): w is ScanWord =>
      typeof w === 'object' &&
      w !== null &&
      typeof (w as ScanWord).word === 'string' &&
      Number.isFinite((w as ScanWord).hesitation),
  );
}

/**
 * Pure: `words` (the utterance's kept decode) with a hesitation put before each word that the
 * scan's word at the same place (the two decodes matched by their longest common subsequence)
 * says follows a hesitation (probability ≥ `min`), unless one is already written there. The
 * hesitation starts and ends where that word starts; its confidence is the scan's probability.
 * @example withScannedHesitations([w('I', 1), w('think', 1.2)], [{ word: ' I', hesitation: 0.01 }, { word: ' think', hesitation: 0.4 }]) // I uh think
 */
export function withScannedHesitations(
  words: readonly TimedWord[],
  scan: readonly ScanWord[],
  min = SCANNED_HESITATION_MIN,
): TimedWord[] {
  const key = (w: string) => alignTokens(w).join(' ');
  const pairs = commonSubsequence(
    scan.map((s) => key(s.word)),
    words.map((w) => key(w.word)),
  );
  const before = new Map<number, number>();
  for (const [i, k] of pairs) if (scan[i].hesitation >= min) before.set(k, scan[i].hesitation);
  const hesitant = (k: number) => k >= 0 && isHesitation(alignTokens(words[k].word).join(' '));
  const out: TimedWord[] = [];
  words.forEach((w, k) => {
    const p = before.get(k);
    if (p !== undefined && !hesitant(k) && !hesitant(k - 1))
      out.push({ word: SCANNED_HESITATION_WORD, start: w.start, end: w.start, confidence: p });
    out.push(w);
  });
  return out;
}

/** Pure: index pairs [i, k] of a longest common subsequence of `a` and `b` (empty strings never match). */
function commonSubsequence(a: readonly string[], b: readonly string[]): Array<[number, number]> {
  const L = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let k = b.length - 1; k >= 0; k--)
      L[i][k] = a[i] && a[i] === b[k] ? L[i + 1][k + 1] + 1 : Math.max(L[i + 1][k], L[i][k + 1]);
  const pairs: Array<[number, number]> = [];
  for (let i = 0, k = 0; i < a.length && k < b.length;) {
    if (a[i] && a[i] === b[k]) pairs.push([i++, k++]);
    else if (L[i + 1][k] >= L[i][k + 1]) i++;
    else k++;
  }
  return pairs;
}
