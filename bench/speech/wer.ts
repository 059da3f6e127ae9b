/**
 * @module bench/speech/wer
 * Word error rate with the usual normalisation (lowercase, punctuation stripped, whitespace
 * split; apostrophes kept inside words; numbers spelled out; "mr"/"mrs"/"dr" written out, as
 * the references write them), by Levenshtein distance over words.
 */

import { cardinal } from '../../containers/media/engines/tts/numbers.js';

const ABBREVIATIONS: Record<string, string> = { mr: 'mister', mrs: 'missus', dr: 'doctor' };

/**
 * Pure: a whole number (0 to 999,999) in words, as the voice's normaliser reads it (hyphens
 * split); other strings unchanged.
 * @example spellNumber('10') // 'ten'; spellNumber('1961') // 'one thousand nine hundred sixty one'
 */
export function spellNumber(token: string): string {
  return /^\d{1,6}$/.test(token) ? cardinal(token).replace(/-/g, ' ') : token;
}

/** Lowercases, strips punctuation, spells numbers and splits into words. */
export function normaliseWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9'\s]+/g, ' ')
    .replace(/(^|\s)'+|'+(\s|$)/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((w) => (ABBREVIATIONS[w] ?? spellNumber(w)).split(' '));
}

/** Edit distance (substitutions + deletions + insertions) between two word lists. */
export function wordEdits(ref: string[], hyp: string[]): number {
  let prev = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const row = [i];
    for (let j = 1; j <= hyp.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (ref[i - 1] === hyp[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[hyp.length];
}

/** WER of a hypothesis against a reference text (0 = perfect; may exceed 1). */
export function wer(reference: string, hypothesis: string): { wer: number; edits: number; refWords: number } {
  const ref = normaliseWords(reference);
  const edits = wordEdits(ref, normaliseWords(hypothesis));
  return { wer: ref.length ? edits / ref.length : 0, edits, refWords: ref.length };
}

/** Index pairs [refIndex, hypIndex] of words the minimum-edit alignment matches exactly. */
export function matchedPairs(ref: string[], hyp: string[]): Array<[number, number]> {
  const d = Array.from({ length: ref.length + 1 }, (_, i) =>
    Array.from({ length: hyp.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= ref.length; i++) {
    for (let j = 1; j <= hyp.length; j++) {
      d[i][j] = Math.min(
        d[i - 1][j] + 1,
        d[i][j - 1] + 1,
        d[i - 1][j - 1] + (ref[i - 1] === hyp[j - 1] ? 0 : 1),
      );
    }
  }
  const pairs: Array<[number, number]> = [];
  for (let i = ref.length, j = hyp.length; i > 0 && j > 0;) {
    if (ref[i - 1] === hyp[j - 1] && d[i][j] === d[i - 1][j - 1]) {
      pairs.push([i - 1, j - 1]);
      i--;
      j--;
    } else if (d[i][j] === d[i - 1][j - 1] + 1) {
      i--;
      j--;
    } else if (d[i][j] === d[i - 1][j] + 1) i--;
    else j--;
  }
  return pairs.reverse();
}
