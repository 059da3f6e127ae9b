/**
 * @module bench/speech/run
 * Speech benchmark (`npx tsx bench/speech/run.ts`): for every clip of ../shared/media/speech and
 * ../shared/media/disfluent (and `spliced.ts`: real fillers spliced into the speech clips), the default engine (Whisper) and the pocketsphinx fallback side by
 * side:
 * - WER against the reference (normalised: case, punctuation, numbers spelled out; `wer.ts`);
 * - hesitation fillers: reference count, true/false positives (start within 150 ms of the
 *   reference filler; `fillers.ts`), hence recall and precision;
 * - median |word start − reference start| over the words the WER alignment matches; the
 *   reference times are soundswallower's forced alignment of the reference text over the clip;
 * - real-time factor (engine wall time / audio) and the decoder process's peak RSS.
 * Then a 60 s run (clips concatenated, decoded per speech segment as the pipeline does).
 * `BENCH_VARIANTS=1` adds Whisper settings (beam 1, no prompt, Whisper's own times) for the
 * tradeoff table; `BENCH_BEAMS=1,2,3,5` runs only the default engine at each of those beam widths
 * (the `WHISPER_BEAM_SIZE` choice).
 */
import type { TimedWord, TimeSegment } from '../../src/contract/media.js';
import { createAsrEngine, type AsrEngine } from '../../containers/media/engines/asr/engine.js';
import { FasterWhisperEngine } from '../../containers/media/engines/asr/faster-whisper.js';
import { loadCorpus, type Clip } from './corpus.js';
import { hesitations, loadDisfluent, matchFillers, referenceAlignment } from './fillers.js';
import { loadSpliced } from './spliced.js';
import { matchedPairs, normaliseWords, wordEdits } from './wer.js';
import { configFrom } from '../../containers/media/core/config.js';

const SAMPLE_RATE_HZ = 16_000;
/** Length of the speed run, seconds. */
const SPEED_RUN_SEC = 60;
/** Gap inserted between concatenated clips in the speed run, seconds. */
const SPEED_RUN_GAP_SEC = 0.5;
const MIB = 1024 * 1024;

interface Row {
  edits: number;
  refWords: number;
  fillers: { ref: number; tp: number; fp: number };
  startErrors: number[];
  wallSec: number;
  audioSec: number;
  peakRss: number;
}

const ENGINES: Array<{ label: string; make: () => Promise<AsrEngine> }> = [
  {
    label: 'whisper base (default)',
    make: () => createAsrEngine(configFrom({ ASR_ENGINE: 'faster-whisper' }).asr),
  },
  {
    label: 'pocketsphinx (fallback)',
    make: () => createAsrEngine(configFrom({ ASR_ENGINE: 'pocketsphinx' }).asr),
  },
];
const beams = (process.env.BENCH_BEAMS ?? '')
  .split(',')
  .map(Number)
  .filter((b) => Number.isInteger(b) && b > 0);
if (beams.length) {
  ENGINES.splice(
    0,
    ENGINES.length,
    ...beams.map((b) => ({
      label: `whisper base, beam ${b}`,
      make: () =>
        createAsrEngine(configFrom({ ASR_ENGINE: 'faster-whisper', WHISPER_BEAM_SIZE: String(b) }).asr),
    })),
  );
}
if (process.env.BENCH_VARIANTS) {
  ENGINES.push(
    { label: 'whisper base, beam 1 (greedy)', make: async () => new FasterWhisperEngine({ beamSize: 1 }) },
    { label: 'whisper base, no prompt', make: async () => new FasterWhisperEngine({ prompt: '' }) },
    {
      label: "whisper base, Whisper's own times",
      make: async () => new FasterWhisperEngine({ align: false }),
    },
  );
}

/** Words (normalised tokens) with the index of the TimedWord each came from. */
function tokensOf(words: readonly TimedWord[]): { tokens: string[]; from: number[] } {
  const tokens: string[] = [];
  const from: number[] = [];
  words.forEach((w, i) => {
    for (const t of normaliseWords(w.word)) {
      tokens.push(t);
      from.push(i);
    }
  });
  return { tokens, from };
}

async function score(engine: AsrEngine, clip: Clip, refWords: TimedWord[]): Promise<Row & { hyp: string }> {
  const t0 = performance.now();
  const out = await engine.transcribe(clip.pcm);
  const wallSec = (performance.now() - t0) / 1000;
  const ref = tokensOf(refWords);
  const hyp = tokensOf(out.words);
  const f = matchFillers(hesitations(refWords), hesitations(out.words));
  const startErrors = matchedPairs(ref.tokens, hyp.tokens).map(([r, h]) =>
    Math.abs(refWords[ref.from[r]].start - out.words[hyp.from[h]].start),
  );
  return {
    edits: wordEdits(normaliseWords(clip.reference), normaliseWords(out.words.map((w) => w.word).join(' '))),
    refWords: normaliseWords(clip.reference).length,
    fillers: { ref: f.tp + f.fn, tp: f.tp, fp: f.fp },
    startErrors,
    wallSec,
    audioSec: clip.pcm.length / SAMPLE_RATE_HZ,
    peakRss: engine.lastRun?.peakRssBytes ?? 0,
    hyp: out.words.map((w) => w.word).join(' '),
  };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[s.length >> 1] : NaN;
};
const pct = (a: number, b: number): string => (b ? `${((100 * a) / b).toFixed(1)} %` : '–');

function summarise(rows: Row[]) {
  const sum = (k: (r: Row) => number) => rows.reduce((s, r) => s + k(r), 0);
  const tp = sum((r) => r.fillers.tp);
  return {
    wer: pct(
      sum((r) => r.edits),
      sum((r) => r.refWords),
    ),
    recall: pct(
      tp,
      sum((r) => r.fillers.ref),
    ),
    precision: pct(tp, tp + sum((r) => r.fillers.fp)),
    startMs: (1000 * median(rows.flatMap((r) => r.startErrors))).toFixed(0),
    rtf: (sum((r) => r.wallSec) / sum((r) => r.audioSec)).toFixed(3),
    peak: (Math.max(...rows.map((r) => r.peakRss)) / MIB).toFixed(0),
  };
}

async function main(): Promise<void> {
  const speech = await loadCorpus({ withExtras: false });
  const disfluent = await loadDisfluent();
  const spliced = await loadSpliced();
  const sets = { speech, disfluent, spliced };
  const clips = [...speech, ...disfluent, ...spliced];
  const refs = new Map<Clip, TimedWord[]>();
  for (const c of clips) refs.set(c, await referenceAlignment(c.pcm, c.reference));
  const totals: string[] = [];
  console.log(
    '| clip | engine | WER | fillers ref / found / false | median start err ms | RTF | peak RSS MiB | words |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const { label, make } of ENGINES) {
    await using engine = await make();
    await engine.transcribe(speech[0].pcm); // warm: model load is not per clip
    const bySet: Record<string, Row[]> = { speech: [], disfluent: [], spliced: [] };
    for (const [set, list] of Object.entries(sets)) {
      for (const clip of list) {
        const r = await score(engine, clip, refs.get(clip)!);
        bySet[set].push(r);
        console.log(
          `| ${clip.file} | ${label} | ${pct(r.edits, r.refWords)} | ${r.fillers.ref} / ${r.fillers.tp} / ${r.fillers.fp} | ` +
            `${(1000 * median(r.startErrors)).toFixed(0)} | ${(r.wallSec / r.audioSec).toFixed(2)} | ${(r.peakRss / MIB).toFixed(0)} | ${r.hyp} |`,
        );
      }
    }
    for (const [set, rows] of Object.entries(bySet)) {
      const s = summarise(rows);
      totals.push(
        `| ${set} | ${label} | ${s.wer} | ${s.recall} | ${s.precision} | ${s.startMs} | ${s.rtf} | ${s.peak} |`,
      );
    }
    const { pcm, segments } = await concatToLength(speech, refs, SPEED_RUN_SEC);
    const t0 = performance.now();
    const out = await engine.transcribe(pcm, { speechSegments: segments });
    const wallSec = (performance.now() - t0) / 1000;
    totals.push(
      `| 60 s, per VAD segment | ${label} | ${out.words.length} words | | | | ${(wallSec / (pcm.length / SAMPLE_RATE_HZ)).toFixed(3)} (${wallSec.toFixed(1)} s) | ${((engine.lastRun?.peakRssBytes ?? 0) / MIB).toFixed(0)} |`,
    );
  }
  console.log(
    '\n| set | engine | WER (pooled) | filler recall | filler precision | median start err ms | RTF | peak RSS MiB |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const t of totals) console.log(t);
}

/** Concatenates clips (with short gaps) until `seconds`; speech segments from the reference alignment. */
async function concatToLength(corpus: Clip[], refs: Map<Clip, TimedWord[]>, seconds: number) {
  const parts: Int16Array[] = [];
  const segments: TimeSegment[] = [];
  const gap = new Int16Array(Math.round(SPEED_RUN_GAP_SEC * SAMPLE_RATE_HZ));
  let at = 0;
  for (let i = 0; at < seconds * SAMPLE_RATE_HZ; i = (i + 1) % corpus.length) {
    const clip = corpus[i];
    for (const w of refs.get(clip)!) {
      const last = segments.at(-1);
      const start = at / SAMPLE_RATE_HZ + w.start;
      if (last && start - last.end < 0.3) last.end = at / SAMPLE_RATE_HZ + w.end;
      else segments.push({ start, end: at / SAMPLE_RATE_HZ + w.end });
    }
    parts.push(clip.pcm, gap);
    at += clip.pcm.length + gap.length;
  }
  const pcm = new Int16Array(at);
  let o = 0;
  for (const p of parts) {
    pcm.set(p, o);
    o += p.length;
  }
  return { pcm, segments };
}

await main();
