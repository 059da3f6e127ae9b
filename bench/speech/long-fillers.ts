/**
 * @module bench/speech/long-fillers
 * Hesitations in long files (`SPEECH_SETS_DIR=… npx tsx bench/speech/long-fillers.ts`): the clips
 * of the English disfluent sets (`wuw-en`, `spliced-en`, `shared-disfluent`; `sets.ts`) joined a
 * minute at a time, 0.7 s apart, and decoded as a job decodes a file (the speech the edge's Silero
 * VAD finds). `bench/speech/languages.ts` scores the same clips one by one; a job on a minute of
 * sparse speech decodes them together. Prints per set: hesitation recall and precision (by time
 * where the set has times, else by order), WER, the decode plan's utterances and wall time, for
 * - `as shipped`: the engine as the service builds it;
 * - `packed`: the same engine on the audio with its long silences shortened first
 *   (`packSilences`, as the engine packs other languages), the words' times put back.
 * Only the tune parts unless BENCH_PARTS says otherwise (look at heldout figures, never at its
 * clips). BENCH_SETS limits the sets.
 */
// First: the VAD's model and runtime are `.onnx` and `.wasm` imports (loaded on first use).
import '../support/wasm-modules.mjs';
import { createAsrEngine } from '../../containers/media/engines/asr/index.js';
import { SILENCE_PACK } from '../../containers/media/engines/asr/faster-whisper.js';
import { packSilences, unpackOutput } from '../../containers/media/engines/asr/silence-pack.js';
import { configFrom } from '../../containers/media/core/config.js';
import type { AsrOutput, TimeSegment } from '../../src/contract/media.js';
import { DEFAULT_VAD_MAX_BATCH } from '../../src/pipeline/steps/audio.js';
import { detectSpeech } from '../../wasm/index.js';
import { fillerRates, languageWer, matchHesitations, type FillerMatch } from './score.js';
import { JOIN_GAP_SEC, joinClips, loadSets, type SetClip } from './sets.js';

const SAMPLE_RATE_HZ = 16_000;
const FILE_SEC = 60;
const sets = (process.env.BENCH_SETS ?? 'wuw-en,spliced-en,shared-disfluent').split(',').filter(Boolean);
const parts = (process.env.BENCH_PARTS ?? 'tune').split(',').filter(Boolean);

interface Joined {
  name: string;
  pcm: Int16Array;
  reference: string;
  /** Hesitation start times on the joined clock, when every disfluent clip has them. */
  times?: number[];
}

/** Pure: the clips joined into files of about a minute each, references and times with them. */
function joinMinutes(name: string, clips: readonly SetClip[]): Joined[] {
  const files: Joined[] = [];
  for (let first = 0; first < clips.length;) {
    let last = first;
    let sec = clips[first].pcm.length / SAMPLE_RATE_HZ + JOIN_GAP_SEC;
    while (last + 1 < clips.length && sec < FILE_SEC)
      sec += clips[++last].pcm.length / SAMPLE_RATE_HZ + JOIN_GAP_SEC;
    const group = clips.slice(first, last + 1);
    const times: number[] = [];
    let at = 0;
    for (const c of group) {
      times.push(...(c.hesitationTimes ?? []).map((t) => t + at));
      at += c.pcm.length / SAMPLE_RATE_HZ + JOIN_GAP_SEC;
    }
    const timed = group.every((c) => c.fluent || c.hesitationTimes);
    files.push({
      name: `${name} ${files.length + 1}`,
      pcm: joinClips(group, JOIN_GAP_SEC),
      reference: group.map((c) => c.reference).join(' '),
      times: timed ? times : undefined,
    });
    first = last + 1;
  }
  return files;
}

await using engine = await createAsrEngine(configFrom({ ASR_ENGINE: 'faster-whisper' }).asr);
const clips = (await loadSets(undefined, sets)).filter((c) => !c.part || parts.includes(c.part));
await engine.transcribe(clips[0].pcm); // warm: model load is not per file

const ways: Record<string, (pcm: Int16Array, speech: TimeSegment[]) => Promise<AsrOutput>> = {
  'as shipped': (pcm, speechSegments) => engine.transcribe(pcm, { speechSegments }),
  packed: async (pcm, speech) => {
    const packed = packSilences(pcm, speech, SILENCE_PACK);
    if (!packed) return engine.transcribe(pcm, { speechSegments: speech });
    return unpackOutput(packed.spans, await engine.transcribe(packed.pcm, { speechSegments: packed.speech }));
  },
};

console.log(
  '| set | files | seconds | decode | utterances | hesitations: refs | found | recall | precision | WER | wall s |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const set of sets) {
  for (const part of [...new Set(clips.filter((c) => c.set === set).map((c) => c.part))]) {
    const files = joinMinutes(
      set,
      clips.filter((c) => c.set === set && c.part === part),
    );
    const speech = await Promise.all(
      files.map((f) => detectSpeech(f.pcm, { maxBatch: DEFAULT_VAD_MAX_BATCH })),
    );
    for (const [way, decode] of Object.entries(ways)) {
      const sum: FillerMatch = { tp: 0, fp: 0, fn: 0 };
      let edits = 0;
      let refWords = 0;
      let utterances = 0;
      let wallSec = 0;
      for (const [i, f] of files.entries()) {
        const t0 = performance.now();
        const out = await decode(f.pcm, speech[i]);
        wallSec += (performance.now() - t0) / 1000;
        utterances += engine.lastRun?.utterances ?? 0;
        const hyp = out.words.map((w) => w.word).join(' ');
        const m = matchHesitations({ text: f.reference, times: f.times }, out.words, 'en');
        sum.tp += m.tp;
        sum.fp += m.fp;
        sum.fn += m.fn;
        const wer = languageWer(f.reference, hyp, 'en');
        edits += wer.edits;
        refWords += wer.refWords;
      }
      const { recall, precision } = fillerRates(sum);
      const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)} %` : '–');
      const seconds = files.reduce((s, f) => s + f.pcm.length, 0) / SAMPLE_RATE_HZ;
      console.log(
        `| ${part ? `${set}/${part}` : set} | ${files.length} | ${seconds.toFixed(0)} | ${way} | ${utterances} | ${sum.tp + sum.fn} | ${sum.tp + sum.fp} | ${pct(recall)} | ${pct(precision)} | ${pct(edits / refWords)} | ${wallSec.toFixed(1)} |`,
      );
    }
  }
}
