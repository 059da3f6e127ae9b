/**
 * @module bench/speech/fillers
 * Hesitation-filler scoring: a recognised hesitation ("um", "uh", "hmm", any spelling, by the
 * analytics' own rule) counts as found when a reference hesitation starts within `toleranceSec`
 * of it (one-to-one, nearest first). Reference times come from forced alignment of the
 * verbatim reference text, which has the fillers written out.
 *
 * The reference alignment is one grammar search over the whole clip (`referenceAlignment`), not
 * the phrase-by-phrase `alignText`: on the disfluent clips the phrase planner put words in the
 * wrong pauses (mfa_crossword: "montreal forced aligner" at 5.8 s, while Whisper run on the
 * 8.2-10.7 s span alone hears exactly those words there; mfa_um: "forced" 1.7 s late).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { alignText } from '../../containers/media/engines/asr/align.js';
import { alignWithFillers } from '../../containers/media/engines/asr/align-fillers.js';
import { isHesitation, normalizeWord } from '../../src/analytics/speech/tokens.js';
import type { TimedWord } from '../../src/contract/media.js';
import { decodeToPcm, MEDIA_DIR, type Clip } from './corpus.js';

/** Start-time tolerance of a found filler (the issue's gate), seconds. */
export const FILLER_TOLERANCE_SEC = 0.15;

/** The hesitation words of a word list. */
export const hesitations = (words: readonly TimedWord[]): TimedWord[] =>
  words.filter((w) => isHesitation(normalizeWord(w.word)));

/**
 * Pure: true positives (pairs within tolerance, matched one-to-one by closeness), false
 * positives and misses, plus the start errors of the pairs.
 * @example matchFillers([{start:1}], [{start:1.1}]) // { tp: 1, fp: 0, fn: 0, startErrors: [0.1] }
 */
export function matchFillers(
  ref: ReadonlyArray<{ start: number }>,
  hyp: ReadonlyArray<{ start: number }>,
  toleranceSec = FILLER_TOLERANCE_SEC,
) {
  const pairs = ref
    .flatMap((r, i) => hyp.map((h, j) => ({ i, j, d: Math.abs(r.start - h.start) })))
    .filter((p) => p.d <= toleranceSec)
    .sort((a, b) => a.d - b.d);
  const usedR = new Set<number>();
  const usedH = new Set<number>();
  const startErrors: number[] = [];
  for (const p of pairs) {
    if (usedR.has(p.i) || usedH.has(p.j)) continue;
    usedR.add(p.i);
    usedH.add(p.j);
    startErrors.push(p.d);
  }
  return { tp: usedR.size, fp: hyp.length - usedH.size, fn: ref.length - usedR.size, startErrors };
}

/** The disfluent clips (`<media>/disfluent/*.flac` with verbatim `.txt` references). */
export async function loadDisfluent(dir = join(MEDIA_DIR, 'disfluent')): Promise<Clip[]> {
  const files = readdirSync(dir)
    .filter((f) => /\.(flac|wav)$/.test(f))
    .sort();
  return Promise.all(
    files.map(async (f) => ({
      file: `disfluent/${f}`,
      reference: readFileSync(join(dir, f.replace(/\.\w+$/, '.txt')), 'utf8').trim(),
      pcm: await decodeToPcm(join(dir, f)),
    })),
  );
}

/**
 * Forced alignment of a verbatim reference: one grammar search over the clip, the phrase
 * planner of `alignText` only when that search fails.
 */
export async function referenceAlignment(pcm: Int16Array, text: string): Promise<TimedWord[]> {
  const words = text
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => ({ word, start: 0, end: 0, confidence: 1 }));
  const exact = await alignWithFillers(pcm, 0, pcm.length / 16_000, words, { exact: true });
  return exact ?? alignText(pcm, text);
}
