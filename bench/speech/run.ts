/**
 * @module bench/speech/run
 * Speech benchmark (`npx tsx bench/speech/run.ts`): for every clip of ../shared/media/speech and
 * two container variants of JFK, the default engine's WER against the reference transcript, the
 * mean |word start error| against soundswallower's forced alignment of the reference (over words
 * the WER alignment matches), the real-time factor (wall / audio) and the decoder's peak RSS.
 * Then a 60 s run (clips concatenated, decoded per speech segment on 2 processes) for the
 * speed target. Set ASR_ENGINE / WHISPER_MODEL_PATH to bench another engine.
 */
import type { TimeSegment } from '../../src/contract/media.js';
import { alignText } from '../../containers/media/engines/asr/align.js';
import { createAsrEngine } from '../../containers/media/engines/asr/engine.js';
import { loadCorpus } from './corpus.js';
import { matchedPairs, normaliseWords, wordEdits } from './wer.js';

const SAMPLE_RATE_HZ = 16_000;
/** Length of the speed-target run, seconds. */
const SPEED_RUN_SEC = 60;
/** Gap inserted between concatenated clips in the speed run, seconds. */
const SPEED_RUN_GAP_SEC = 0.5;
const MIB = 1024 * 1024;

async function main(): Promise<void> {
  const corpus = await loadCorpus();
  using engine = await createAsrEngine(process.env);
  console.log(`engine: ${engine.name}`);
  console.log('| clip | dur s | WER | ref | hyp | start err ms (n) | RTF | peak RSS MiB |');
  console.log('|---|---|---|---|---|---|---|---|');
  const rows: Array<{ wer: number; rtf: number; startErr: number }> = [];
  let edits = 0;
  let refWords = 0;
  for (const clip of corpus) {
    const dur = clip.pcm.length / SAMPLE_RATE_HZ;
    const t0 = performance.now();
    const out = await engine.transcribe(clip.pcm);
    const wallSec = (performance.now() - t0) / 1000;
    const ref = normaliseWords(clip.reference);
    const hyp = normaliseWords(out.words.map((w) => w.word).join(' '));
    const e = wordEdits(ref, hyp);
    const aligned = await alignText(clip.pcm, clip.reference);
    const errs = matchedPairs(ref, hyp).map(([r, h]) => Math.abs(aligned[r].start - out.words[h].start));
    const startErr = errs.length ? errs.reduce((s, x) => s + x, 0) / errs.length : NaN;
    const row = { wer: e / ref.length, rtf: wallSec / dur, startErr };
    rows.push(row);
    edits += e;
    refWords += ref.length;
    console.log(
      `| ${clip.file} | ${dur.toFixed(1)} | ${(100 * row.wer).toFixed(1)} % | ${ref.join(' ')} | ${hyp.join(' ')} | ` +
        `${(1000 * startErr).toFixed(0)} (${errs.length}) | ${row.rtf.toFixed(2)} | ${((engine.lastRun?.peakRssBytes ?? 0) / MIB).toFixed(0)} |`,
    );
  }
  const mean = (xs: number[]) => xs.filter(Number.isFinite).reduce((s, x, _, a) => s + x / a.length, 0);
  console.log(
    `summary: mean WER ${(100 * mean(rows.map((r) => r.wer))).toFixed(1)} % (pooled ${((100 * edits) / refWords).toFixed(1)} %), ` +
      `mean RTF ${mean(rows.map((r) => r.rtf)).toFixed(2)}, mean |start err| ${(1000 * mean(rows.map((r) => r.startErr))).toFixed(0)} ms`,
  );

  // Speed target: 60 s of speech, decoded per (oracle) speech segment like the pipeline does.
  const { pcm, segments } = await concatToLength(corpus, SPEED_RUN_SEC);
  const t0 = performance.now();
  const out = await engine.transcribe(pcm, { speechSegments: segments });
  const wallSec = (performance.now() - t0) / 1000;
  const audioSec = pcm.length / SAMPLE_RATE_HZ;
  console.log(
    `speed: ${audioSec.toFixed(1)} s audio, ${segments.length} segments, ${out.words.length} words in ${wallSec.toFixed(1)} s wall ` +
      `(RTF ${(wallSec / audioSec).toFixed(2)}, ${engine.lastRun?.processes ?? '?'} processes, peak RSS ${((engine.lastRun?.peakRssBytes ?? 0) / MIB).toFixed(0)} MiB)`,
  );
}

/** Concatenates clips (with short gaps) until `seconds`; speech segments from forced alignment. */
async function concatToLength(corpus: Awaited<ReturnType<typeof loadCorpus>>, seconds: number) {
  const parts: Int16Array[] = [];
  const segments: TimeSegment[] = [];
  const gap = new Int16Array(Math.round(SPEED_RUN_GAP_SEC * SAMPLE_RATE_HZ));
  let at = 0;
  for (let i = 0; at < seconds * SAMPLE_RATE_HZ; i = (i + 1) % corpus.length) {
    const clip = corpus[i];
    const words = await alignText(clip.pcm, clip.reference);
    for (const w of words) {
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
