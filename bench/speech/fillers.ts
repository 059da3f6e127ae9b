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

export { FILLER_TOLERANCE_SEC, matchFillers } from './score.js';

/** The hesitation words of a word list. */
export const hesitations = (words: readonly TimedWord[]): TimedWord[] =>
  words.filter((w) => isHesitation(normalizeWord(w.word)));

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
