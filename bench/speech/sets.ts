/**
 * @module bench/speech/sets
 * The evaluation sets of real recordings (`<SPEECH_SETS_DIR>/<set>/MANIFEST.tsv` plus 16 kHz mono
 * FLAC), as described in docs/speech-sets.md. They are public recordings brought in from other
 * repositories, so they live beside the project (default `../shared/media/sets`), not in it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { decodeToPcm, MEDIA_DIR } from './corpus.js';

/** Where the sets live (override with SPEECH_SETS_DIR). */
export const SETS_DIR = resolve(process.env.SPEECH_SETS_DIR ?? join(MEDIA_DIR, 'sets'));

export interface SetClip {
  set: string;
  /** `tune` or `heldout` where the set is split (never tune on `heldout`), else empty. */
  part: string;
  file: string;
  /** ISO 639-1. */
  language: string;
  speaker: string;
  reference: string;
  fluent: boolean;
  /** `read` or `spontaneous` (conversation, interview) where the set says, else empty. */
  style: string;
  /** Reference filler start times, seconds, when the set has them. */
  hesitationTimes?: number[];
  pcm: Int16Array;
}

/** Pure: the rows of a MANIFEST.tsv as records keyed by its header. */
export function parseManifest(tsv: string): Array<Record<string, string>> {
  const [header, ...rows] = tsv
    .replace(/\r/g, '')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => l.split('\t'));
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
}

/** Pure: "1.20;3.45" → [1.2, 3.45]; empty → undefined. */
export function parseTimes(field: string): number[] | undefined {
  const xs = field
    .split(/[;,\s]+/)
    .filter(Boolean)
    .map(Number);
  return xs.length && xs.every(Number.isFinite) ? xs : undefined;
}

/**
 * Silence between clips joined into one file, seconds: under the engine's 1 s merge gap, so the
 * clips share utterances as a longer recording's sentences do.
 */
export const JOIN_GAP_SEC = 0.7;

/** Pure: the clips' 16 kHz audio one after another, `gapSec` of silence after each. */
export function joinClips(clips: ReadonlyArray<{ pcm: Int16Array }>, gapSec: number): Int16Array {
  const gap = Math.round(gapSec * 16_000);
  const pcm = new Int16Array(clips.reduce((n, c) => n + c.pcm.length + gap, 0));
  clips.reduce((at, c) => (pcm.set(c.pcm, at), at + c.pcm.length + gap), 0);
  return pcm;
}

/** Loads every set under `dir` (or only `names`), decoding each clip with native ffmpeg. */
export async function loadSets(dir = SETS_DIR, names?: string[]): Promise<SetClip[]> {
  if (!existsSync(dir))
    throw new Error(`${dir} not found: set SPEECH_SETS_DIR to the evaluation sets (docs/speech-sets.md)`);
  const sets = (names ?? readdirSync(dir)).filter((s) => existsSync(join(dir, s, 'MANIFEST.tsv'))).sort();
  const clips: SetClip[] = [];
  for (const set of sets) {
    for (const row of parseManifest(readFileSync(join(dir, set, 'MANIFEST.tsv'), 'utf8'))) {
      clips.push({
        set,
        part: row.part ?? '',
        file: row.file,
        language: row.language,
        speaker: row.speaker,
        reference: row.reference_transcript,
        fluent: row.fluent === 'yes',
        style: row.style ?? '',
        hesitationTimes: parseTimes(row.hesitation_times ?? ''),
        pcm: await decodeToPcm(join(dir, set, row.file)),
      });
    }
  }
  return clips;
}
