/**
 * @module bench/speech/mixed
 * Files in two languages (`npx tsx bench/speech/mixed.ts`; SPEECH_SETS_DIR as for `languages.ts`):
 * part A, the read clips of one language one after another until 22 s (English: the shared speech
 * clips), 3 s of silence, then part B, another language's clips until 14 s. Each file goes through
 * the engine as a job sends it (the edge VAD's segments), once as the service decodes now and once
 * with the language set to the file's (the decode before long stretches were switched: every
 * utterance in one language). Prints per pair the result's language, the warning and each part's
 * WER against its references (`score.ts`). BENCH_PAIRS=en:de,fr:en picks the pairs.
 */
import '../support/wasm-modules.mjs';
import { createAsrEngine } from '../../containers/media/engines/asr/index.js';
import { configFrom } from '../../containers/media/core/config.js';
import type { AsrOutput } from '../../src/contract/media.js';
import { DEFAULT_VAD_MAX_BATCH } from '../../src/pipeline/steps/audio.js';
import { detectSpeech } from '../../wasm/index.js';
import { loadCorpus } from './corpus.js';
import { languageWer } from './score.js';
import { loadSets } from './sets.js';

const SAMPLE_RATE_HZ = 16_000;
const PART_A_SEC = 22;
const PART_B_SEC = 14;
const PAUSE_SEC = 3;
const DEFAULT_PAIRS = 'en:de,en:fr,en:es,de:en,fr:en,es:pt';

type Piece = { pcm: Int16Array; reference: string };

/** Pure: pieces from the front of `clips` until they last at least `minSec`. */
function takeSeconds(clips: readonly Piece[], minSec: number): Piece[] {
  const out: Piece[] = [];
  for (let sec = 0, i = 0; sec < minSec && i < clips.length; i++) {
    out.push(clips[i]);
    sec += clips[i].pcm.length / SAMPLE_RATE_HZ;
  }
  return out;
}

/** Pure: the samples one after another. */
function concat(parts: readonly Int16Array[]): Int16Array {
  const pcm = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (pcm.set(p, at), at + p.length), 0);
  return pcm;
}

/** Pure: the words of `out` that start in [from, to) seconds, joined. */
const wordsIn = (out: AsrOutput, from: number, to: number) =>
  out.words
    .filter((w) => w.start >= from && w.start < to)
    .map((w) => w.word)
    .join(' ');

const sets = await loadSets(undefined, ['multilingual']);
const shared = await loadCorpus({ withExtras: false });
const clipsOf = (language: string): Piece[] =>
  language === 'en'
    ? shared.filter((c) => c.file.startsWith('speech/'))
    : sets.filter((c) => c.language === language && c.style === 'read');
const engine = await createAsrEngine(configFrom({ ASR_ENGINE: 'faster-whisper' }).asr);
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

console.log(
  '| A → B | seconds of A / B | language | stretch warning | WER A | WER B | WER A, one language | WER B, one language |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const [a, b] of (process.env.BENCH_PAIRS ?? DEFAULT_PAIRS).split(',').map((p) => p.split(':'))) {
  const partA = takeSeconds(clipsOf(a), PART_A_SEC);
  const partB = takeSeconds(clipsOf(b), PART_B_SEC);
  const aSec = concat(partA.map((p) => p.pcm)).length / SAMPLE_RATE_HZ;
  const bFrom = aSec + PAUSE_SEC;
  const pcm = concat([
    ...partA.map((p) => p.pcm),
    new Int16Array(PAUSE_SEC * SAMPLE_RATE_HZ),
    ...partB.map((p) => p.pcm),
  ]);
  const speechSegments = await detectSpeech(pcm, { maxBatch: DEFAULT_VAD_MAX_BATCH });
  const now = await engine.transcribe(pcm, { speechSegments });
  const stretch = now.warnings?.find((w) => w.includes('each part transcribed in its own language'));
  // Before: every utterance in the language the file was decoded in first (the rest's language).
  const fileLanguage = (stretch && /the rest in (\w+)/.exec(stretch)?.[1]) ?? now.language ?? a;
  const before = await engine.transcribe(pcm, { speechSegments, language: fileLanguage });
  const wer = (out: AsrOutput) => [
    languageWer(partA.map((p) => p.reference).join(' '), wordsIn(out, 0, bFrom - PAUSE_SEC / 2), a).wer,
    languageWer(partB.map((p) => p.reference).join(' '), wordsIn(out, bFrom - PAUSE_SEC / 2, Infinity), b)
      .wer,
  ];
  const [aNow, bNow] = wer(now);
  const [aBefore, bBefore] = wer(before);
  console.log(
    `| ${a} → ${b} | ${aSec.toFixed(1)} / ${(pcm.length / SAMPLE_RATE_HZ - bFrom).toFixed(1)} | ${now.language} (${now.language_probability}) | ${stretch ?? '–'} | ${pct(aNow)} | ${pct(bNow)} | ${pct(aBefore)} | ${pct(bBefore)} |`,
  );
}
process.exit(0);
