/**
 * @module bench/speech/sets-build/wuw-en
 * Builds the `wuw-en` set (docs/speech-sets.md): spontaneous English telephone speech with the
 * hesitations its transcribers marked, from the WUW Corpus II (`wake-up-word/wuw-corpus-ii`, V.
 * Kepuska / ThinkEngine Networks 2002, CC BY-SA 4.0), built from its snapshot at commit
 * edd16fe0e8c861daef05e6778016764e20b3d628. Every file is read with `git show COMMIT:path`.
 *
 *   npx tsx bench/speech/sets-build/wuw-en.ts [--out DIR] [--commit REV] [--dry-run]
 *     [--mirror-root /work/.mirror] [--repo wake-up-word/wuw-corpus-ii=GITDIR]
 *
 * `--commit` defaults to the snapshot's HEAD (pass the commit above if the snapshot has moved on);
 * `--dry-run` prints the selection's counts and writes nothing.
 *
 * Rules, and why:
 * - Only the "in sentence" utterances (006–010 of `data.json`): the others (000–005) are the
 *   caller's name or a wake-up word alone, with no room for a hesitation.
 * - Dropped: transcripts with an unintelligible stretch `((…))` or a skip, as their reference
 *   words are a guess or missing; transcripts that are empty or only the wake-up word once cleaned.
 * - A session (one caller) is kept when one of its kept utterances marks a hesitation, and then
 *   with all its kept utterances, fluent ones too: every caller in the set hesitates somewhere,
 *   and the same voices' fluent utterances test hesitations invented where none were said.
 * - Split by session, fixed before any result was seen: session number a multiple of 3 → `tune`,
 *   else `heldout`, so no caller is in both.
 * - The audio is 8 kHz μ-law, converted to 16 kHz like every set; it stays narrowband.
 */
import { join } from 'node:path';
import { countHesitations } from './annotation.js';
import { decodeS16, RATE, writeFlac } from './audio.js';
import { cli, finishSet, startSet, type Row } from './cli.js';

const SOURCE_REPO = 'wake-up-word/wuw-corpus-ii';
const LICENSE = 'CC-BY-SA-4.0';
const IN_SENTENCE = ['006', '007', '008', '009', '010'];
/** The corpus's wake-up words: an utterance that is only one of them has no sentence. */
const KEYWORDS = new Set(['operator', 'thinkengine', 'onword', 'wildfire', 'voyager']);
/**
 * The corpus's filled-pause marks (lowercased, `%` and punctuation stripped) as the reference
 * writes them; "ah" is this corpus's spelling of a filled pause, so it is kept as written.
 */
const FILLERS: Record<string, string> = { uh: 'uh', um: 'um', ah: 'ah', uhm: 'um', umm: 'um' };
const ULAW = ['-f', 'mulaw', '-ar', '8000', '-ac', '1'];

interface Entry {
  gender: string;
  dialect: string;
  phonetype: string;
  sessionNumber: string;
  utteranceNumber: string;
  filePath: string;
  transcription: string;
}

/**
 * Pure: the transcript without noise and breath marks, name and keyword marks and cut-off
 * fragments; the corpus's filler spellings unified (`%Uh,` → `uh,`, `uhm` → `um`).
 */
export function cleanTranscript(raw: string): string {
  let t = raw.replace(/\uFFFD/g, "'"); // mis-encoded apostrophes (I�m)
  t = t.replace(/<as>.*?<\/as>/g, ' '); // side speech
  t = t.replace(/\{[^}]*\}/g, ''); // {breath} {smack} … (glued: Th{breath}inkEngine → ThinkEngine)
  t = t.replace(/\[+[^\]]*\]+/g, ' '); // [click] [static/] [/background noise] [[skip]] …
  t = t.replace(/[[\]{}]/g, ' '); // stray brackets of malformed marks
  t = t.replace(/[\^+*~@]/g, ''); // ^name +reduced *nonstandard ~spelled @acronym
  t = t.replace(/_/g, ' '); // _Keyword_ boundaries (wish_ThinkEngine_would)
  const words = t.split(/\s+/).filter((w) => {
    const core = w.replace(/[.,?!;:]+$/, '');
    if (!core) return true; // lone punctuation left by a removed mark: joined to the word before
    return !(core.endsWith('-') || core.startsWith('-') || core.includes('(-)')); // con- -st ju(-)
  });
  return words
    .map((w) => {
      const m = /^(%?)([A-Za-z]+)([.,?!;:]*)$/.exec(w);
      const key = m?.[2].toLowerCase() ?? '';
      return m && Object.hasOwn(FILLERS, key) ? FILLERS[key] + m[3] : w;
    })
    .join(' ')
    .replace(/\s+([.,?!;:])/g, '$1')
    .replace(/([.,?!;:])[.,?!;:]+/g, '$1')
    .replace(/^[\s.,?!;:]+/, '')
    .trim();
}

/** Pure: the corpus's filler tokens in a cleaned transcript. */
export const hesitations = (clean: string): number =>
  clean
    .split(/\s+/)
    .filter((w) => Object.hasOwn(FILLERS, w.toLowerCase().replace(/^[^a-z0-9']+|[^a-z0-9']+$/g, ''))).length;

interface Clip {
  e: Entry;
  clean: string;
  hes: number;
  part: 'tune' | 'heldout';
}

function select(entries: Entry[]): Clip[] {
  const bySession = new Map<string, Clip[]>();
  let unusable = 0;
  let keywordOnly = 0;
  for (const e of entries) {
    if (!IN_SENTENCE.includes(e.utteranceNumber)) continue;
    if (/\(\(|\)\)|skip/i.test(e.transcription)) {
      unusable++;
      continue;
    }
    const clean = cleanTranscript(e.transcription);
    const words = clean.split(/\s+/).filter(Boolean);
    if (
      !words.length ||
      (words.length === 1 && KEYWORDS.has(words[0].toLowerCase().replace(/[^a-z]/g, '')))
    ) {
      keywordOnly++;
      continue;
    }
    const part = Number(e.sessionNumber) % 3 === 0 ? 'tune' : 'heldout';
    bySession.set(e.sessionNumber, [
      ...(bySession.get(e.sessionNumber) ?? []),
      { e, clean, hes: hesitations(clean), part },
    ]);
  }
  console.log(`dropped (( ))/skip: ${unusable}, empty/keyword-only: ${keywordOnly}`);
  return [...bySession.entries()]
    .filter(([, cs]) => cs.some((c) => c.hes > 0))
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([, cs]) => cs.sort((a, b) => a.e.utteranceNumber.localeCompare(b.e.utteranceNumber)));
}

const speakerOf = (c: Clip) => `wuw_s${String(Number(c.e.sessionNumber)).padStart(3, '0')}`;
const fileOf = (c: Clip) => `en/${speakerOf(c)}_u${c.e.utteranceNumber}.flac`;

function main(): void {
  const run = cli('wuw-en');
  const repo = run.repo(SOURCE_REPO);
  const commit = repo.commit(run.option('--commit'));
  const data = JSON.parse(repo.show(commit, 'data.json').toString('utf8')) as { entries: Entry[] };
  const clips = select(data.entries);
  const dryRun = run.flag('--dry-run');
  const stage = dryRun ? '' : startSet(run.out, ['en']);
  const seconds = new Map<Clip, number>();
  const rows = clips.map((c, i): Row & { part: string } => {
    if (!dryRun) {
      const audio = repo.show(commit, c.e.filePath);
      // a snapshot can hold a Git LFS pointer where the audio should be
      if (
        audio.length < 800 ||
        audio.subarray(0, 64).toString('latin1').startsWith('version https://git-lfs')
      )
        throw new Error(`${c.e.filePath}: not audio (${audio.length} bytes)`);
      const pcm = decodeS16(audio, { format: ULAW });
      writeFlac(pcm, join(stage, fileOf(c)));
      seconds.set(c, pcm.length / RATE);
      if ((i + 1) % 25 === 0) console.error(`converted ${i + 1}/${clips.length}`);
    }
    const caller = [c.e.gender, c.e.dialect, c.e.phonetype].filter(Boolean).join(', ');
    // one transcript glues a filler to the next words; it is kept as the source wrote it
    const glued = /\buh,theoperator\b/i.test(c.clean)
      ? '; source writes "uh,theoperator" (kept, not counted)'
      : '';
    return {
      file: fileOf(c),
      language: 'en',
      speaker: speakerOf(c),
      duration_s: (seconds.get(c) ?? 0).toFixed(2),
      source_repo: SOURCE_REPO,
      source_path: c.e.filePath,
      source_commit: commit,
      start_s: '',
      end_s: '',
      license: LICENSE,
      reference_transcript: c.clean,
      fluent: c.hes === 0 ? 'yes' : 'no',
      hesitation_times: '',
      notes: `${caller}${glued}`,
      part: c.part,
    };
  });
  if (!dryRun) finishSet(stage, run.out, 'part', rows);

  console.log(`commit ${commit}${dryRun ? ' (dry run: nothing written)' : `; written to ${run.out}`}`);
  for (const part of ['tune', 'heldout'] as const) {
    const cs = clips.filter((c) => c.part === part);
    const hes = cs.reduce((n, c) => n + c.hes, 0);
    const bench = cs.reduce((n, c) => n + countHesitations(c.clean, 'en'), 0);
    const benchOnFluent = cs.filter((c) => c.hes === 0 && countHesitations(c.clean, 'en') > 0).length;
    const min = cs.reduce((n, c) => n + (seconds.get(c) ?? 0), 0) / 60;
    console.log(
      `${part}: ${cs.length} clips, ${new Set(cs.map((c) => c.e.sessionNumber)).size} sessions, ` +
        `${hes} hesitations (bench rule: ${bench}; fluent clips with a bench hesitation: ${benchOnFluent}), ` +
        `${cs.filter((c) => c.hes === 0).length} fluent, ${dryRun ? '-' : min.toFixed(1)} min`,
    );
  }
}

main();
