/**
 * @module bench/speech/long
 * Long audio: `npx tsx bench/speech/long.ts <minutes>` builds that many minutes of speech by
 * looping the ../shared/media/speech clips (0.5 s apart), decodes it with the default engine per
 * speech segment (the clips' forced-aligned spans, as VAD would give), and prints wall time, the
 * Whisper worker's peak RSS, this Node process's peak RSS and the pooled WER. Run each length in
 * its own process so the peaks are that length's.
 */
import { createAsrEngine } from '../../containers/media/engines/asr/engine.js';
import type { TimeSegment } from '../../src/contract/media.js';
import { loadCorpus } from './corpus.js';
import { referenceAlignment } from './fillers.js';
import { normaliseWords, wordEdits } from './wer.js';
import { configFrom } from '../../containers/media/core/config.js';

const RATE = 16_000;
const GAP_SEC = 0.5;
const MIB = 1024 * 1024;

const minutes = Number(process.argv[2] ?? 1);
const corpus = await loadCorpus({ withExtras: false });
const refs = await Promise.all(corpus.map((c) => referenceAlignment(c.pcm, c.reference)));
const total = Math.round(minutes * 60 * RATE);
const pcm = new Int16Array(total + 40 * RATE);
const segments: TimeSegment[] = [];
const reference: string[] = [];
let at = 0;
for (let i = 0; at < total; i = (i + 1) % corpus.length) {
  pcm.set(corpus[i].pcm, at);
  for (const w of refs[i]) {
    const last = segments.at(-1);
    const start = at / RATE + w.start;
    if (last && start - last.end < 0.3) last.end = at / RATE + w.end;
    else segments.push({ start, end: at / RATE + w.end });
  }
  reference.push(corpus[i].reference);
  at += corpus[i].pcm.length + GAP_SEC * RATE;
}
const audio = pcm.subarray(0, at);
using engine = await createAsrEngine(configFrom({}).asr);
const t0 = performance.now();
const out = await engine.transcribe(audio, { speechSegments: segments });
const wallSec = (performance.now() - t0) / 1000;
const ref = normaliseWords(reference.join(' '));
const edits = wordEdits(ref, normaliseWords(out.words.map((w) => w.word).join(' ')));
console.log(
  `${minutes} min (${(audio.length / RATE).toFixed(0)} s audio, ${segments.length} segments): ${engine.name} ${wallSec.toFixed(1)} s wall ` +
    `(RTF ${(wallSec / (audio.length / RATE)).toFixed(3)}), worker peak RSS ${((engine.lastRun?.peakRssBytes ?? 0) / MIB).toFixed(0)} MiB, ` +
    `node peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB, WER ${((100 * edits) / ref.length).toFixed(1)} % of ${ref.length} words`,
);
