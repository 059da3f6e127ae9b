/**
 * @module bench/speech/tune
 * Tries pocketsphinx decoder settings on the speech corpus and prints WER and CPU real-time
 * factor for each (`npx tsx bench/speech/tune.ts [name...]`). CPU time is read from the decoder's
 * own log, because the machine is shared and wall time is noisy.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PocketsphinxEngine } from '../../containers/media/engines/asr/pocketsphinx.js';
import type { DecodePlanOptions } from '../../containers/media/engines/asr/segments.js';
import { loadCorpus } from './corpus.js';
import { alignText } from '../../containers/media/engines/asr/align.js';
import type { TimeSegment } from '../../src/contract/media.js';
import { normaliseWords, wordEdits } from './wer.js';

interface Trial {
  name: string;
  params?: Record<string, string>;
  plan?: DecodePlanOptions;
  /** Decode per speech segment: spans of the reference's forced alignment (an oracle VAD). */
  vad?: boolean;
}

/** Pauses longer than this split the oracle VAD segments, seconds (Silero-like min silence). */
const ORACLE_VAD_MIN_GAP_SEC = 0.3;

/** The settings tried, one change at a time from the Debian defaults. */
export const TRIALS: Trial[] = [
  { name: 'defaults' },
  { name: 'cmn=batch', params: { cmn: 'batch' } },
  { name: 'remove_noise=no', params: { remove_noise: 'no' } },
  { name: 'remove_silence=no', params: { remove_silence: 'no' } },
  { name: 'lw=8', params: { lw: '8' } },
  { name: 'lw=10', params: { lw: '10', fwdflatlw: '10', bestpathlw: '11' } },
  { name: 'lw=5', params: { lw: '5', fwdflatlw: '6.5', bestpathlw: '7.5' } },
  { name: 'wip=0.2', params: { wip: '0.2' } },
  { name: 'wip=2', params: { wip: '2' } },
  { name: 'beam=1e-40,wbeam=1e-30', params: { beam: '1e-40', wbeam: '1e-30', pbeam: '1e-40' } },
  { name: 'beam=1e-60,wbeam=1e-40', params: { beam: '1e-60', wbeam: '1e-40', pbeam: '1e-60' } },
  { name: 'maxhmmpf=5000', params: { maxhmmpf: '5000' } },
  { name: 'topn=2', params: { topn: '2' } },
  { name: 'pl_window=10', params: { pl_window: '10' } },
  { name: 'fwdflat=no', params: { fwdflat: 'no' } },
  { name: 'bestpath=no', params: { bestpath: 'no' } },
  { name: 'maxhmmpf=3000', params: { maxhmmpf: '3000' } },
  { name: 'maxhmmpf=5000,fwdflat=no', params: { maxhmmpf: '5000', fwdflat: 'no' } },
  { name: 'maxhmmpf=3000,fwdflat=no', params: { maxhmmpf: '3000', fwdflat: 'no' } },
  { name: 'maxhmmpf=2000,fwdflat=no', params: { maxhmmpf: '2000', fwdflat: 'no' } },
  { name: 'maxhmmpf=5000,remove_silence=no', params: { maxhmmpf: '5000', remove_silence: 'no' } },
  // Speed on top of the chosen settings (the 60 s ≤ 20 s end-to-end gate).
  { name: 'tuned', params: { maxhmmpf: '5000', remove_silence: 'no' } },
  { name: 'tuned,fwdflat=no', params: { maxhmmpf: '5000', remove_silence: 'no', fwdflat: 'no' } },
  { name: 'tuned,pl_window=5', params: { maxhmmpf: '5000', remove_silence: 'no', pl_window: '5' } },
  { name: 'tuned,topn=2', params: { maxhmmpf: '5000', remove_silence: 'no', topn: '2' } },
  { name: 'tuned,maxhmmpf=4000', params: { maxhmmpf: '4000', remove_silence: 'no' } },
  { name: 'tuned,maxwpf=10', params: { maxhmmpf: '5000', remove_silence: 'no', maxwpf: '10' } },
  { name: 'tuned,maxwpf=5', params: { maxhmmpf: '5000', remove_silence: 'no', maxwpf: '5' } },
  {
    name: 'tuned,maxwpf=10,pl_window=5',
    params: { maxhmmpf: '5000', remove_silence: 'no', maxwpf: '10', pl_window: '5' },
  },
  {
    name: 'tuned,maxwpf=10,fwdflat=no',
    params: { maxhmmpf: '5000', remove_silence: 'no', maxwpf: '10', fwdflat: 'no' },
  },
  { name: 'tuned,ds=2', params: { maxhmmpf: '5000', remove_silence: 'no', ds: '2' } },
  {
    name: 'tuned,maxwpf=10,topn=3',
    params: { maxhmmpf: '5000', remove_silence: 'no', maxwpf: '10', topn: '3' },
  },
  { name: 'vad,pad=0.1', params: { maxhmmpf: '5000' }, vad: true, plan: { paddingSec: 0.1 } },
  { name: 'vad,pad=0.3', params: { maxhmmpf: '5000' }, vad: true, plan: { paddingSec: 0.3 } },
  { name: 'vad,pad=0.5', params: { maxhmmpf: '5000' }, vad: true, plan: { paddingSec: 0.5 } },
];

/** Speech segments from the forced alignment of the reference text. */
async function oracleVad(pcm: Int16Array, text: string): Promise<TimeSegment[]> {
  const segs: TimeSegment[] = [];
  for (const w of await alignText(pcm, text)) {
    const last = segs.at(-1);
    if (last && w.start - last.end < ORACLE_VAD_MIN_GAP_SEC) last.end = w.end;
    else segs.push({ start: w.start, end: w.end });
  }
  return segs;
}

async function main(): Promise<void> {
  const filter = process.argv.slice(2);
  const corpus = (await loadCorpus({ withExtras: false })).filter((c) => c.reference);
  const audioSec = corpus.reduce((s, c) => s + c.pcm.length / 16_000, 0);
  const vad = await Promise.all(corpus.map((c) => oracleVad(c.pcm, c.reference)));
  const logDir = mkdtempSync(join(tmpdir(), 'asr-tune-'));
  console.log(`corpus: ${corpus.length} clips, ${audioSec.toFixed(1)} s`);
  console.log('| setting | WER | edits/words | CPU RTF |\n|---|---|---|---|');
  try {
    for (const [n, t] of TRIALS.filter((x) => !filter.length || filter.includes(x.name)).entries()) {
      let edits = 0;
      let words = 0;
      let cpuSec = 0;
      // Two clips at a time: uses both cores; CPU time per process is unaffected.
      const results = await mapLimit(corpus, 2, async (clip, i) => {
        // pocketsphinx appends to -logfn, so every run gets its own file.
        const logfn = join(logDir, `${n}-${i}.log`);
        using engine = new PocketsphinxEngine({ workers: 1, params: { ...t.params, logfn }, plan: t.plan });
        const out = await engine.transcribe(clip.pcm, { speechSegments: t.vad ? vad[i] : undefined });
        const cpu = Number(
          /TOTAL [\d.]+ seconds speech, ([\d.]+) seconds CPU/.exec(readFileSync(logfn, 'utf8'))?.[1] ?? NaN,
        );
        const ref = normaliseWords(clip.reference);
        return {
          edits: wordEdits(ref, normaliseWords(out.words.map((w) => w.word).join(' '))),
          words: ref.length,
          cpu,
        };
      });
      for (const r of results) {
        edits += r.edits;
        words += r.words;
        cpuSec += r.cpu;
      }
      console.log(
        `| ${t.name} | ${((100 * edits) / words).toFixed(1)} % | ${edits}/${words} | ${(cpuSec / audioSec).toFixed(3)} |`,
      );
    }
  } finally {
    rmSync(logDir, { recursive: true, force: true });
  }
}

/** Maps with at most `limit` calls in flight, keeping order. */
export async function mapLimit<T, R>(
  items: T[],
  limit: number,
  fn: (x: T, i: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
