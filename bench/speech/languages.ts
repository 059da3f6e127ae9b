/**
 * @module bench/speech/languages
 * Per-language speech bench (`npx tsx bench/speech/languages.ts`): every clip of the evaluation
 * sets (`sets.ts`; SPEECH_SETS_DIR) through the container's ASR engine, then
 * - a per-language table: clips, speakers, language detected right (`AsrOutput.language`),
 *   pooled WER against the spoken words (`score.ts`: NFC, lowercase, punctuation stripped,
 *   numbers spelled out, hesitations left to the filler table), invented hesitations on fluent
 *   clips (every recognised hesitation on a clip whose reference has none);
 * - a filler table per set and language over the clips whose reference has hesitations: refs,
 *   found, matched (within 150 ms of the reference time where the set has times, else by
 *   order), recall, precision.
 * The engine detects the language unless BENCH_FORCE_LANGUAGE=1, which passes each clip's
 * language (`transcribe(pcm, { language })`). BENCH_SETS=a,b limits the sets; BENCH_ENGINE picks
 * the engine (default faster-whisper); BENCH_PARTS=tune keeps only the clips of those parts (a
 * set without parts is kept whole); BENCH_CLIPS=1 prints every clip's result (look at a tune
 * part's clips with both, never at a heldout part's).
 * BENCH_METHOD sets how English hesitations are recovered, to compare the methods side by side
 * (`methods.ts`): `service` (default: the engine as the service builds it), `bare`, `prompt`, `fillers`.
 * Like a job, the engine decodes only the speech the edge's Silero VAD finds (`detectSpeech` with
 * the service's batching); BENCH_VAD=0 decodes whole clips instead.
 */
// First: the VAD's model and runtime are `.onnx` and `.wasm` imports (loaded on first use).
import '../support/wasm-modules.mjs';
import { createAsrEngine } from '../../containers/media/engines/asr/index.js';
import type { TranscribeOptions } from '../../containers/media/engines/asr/index.js';
import type { AsrOutput } from '../../src/contract/media.js';
import {
  fillerRates,
  inventedHesitations,
  isHesitationIn,
  languageWer,
  matchHesitations,
  type FillerMatch,
} from './score.js';
import { loadSets, type SetClip } from './sets.js';
import { configFrom } from '../../containers/media/core/config.js';
import { FasterWhisperEngine } from '../../containers/media/engines/asr/faster-whisper.js';
import { HESITATION_METHODS } from './methods.js';
import { DEFAULT_VAD_MAX_BATCH } from '../../src/pipeline/steps/audio.js';
import { detectSpeech } from '../../wasm/index.js';

const SAMPLE_RATE_HZ = 16_000;

interface ClipResult {
  clip: SetClip;
  detected?: string;
  probability?: number;
  edits: number;
  refWords: number;
  invented: number;
  fillers?: FillerMatch & { method: 'time' | 'order' };
  wallSec: number;
  hyp: string;
}

const pct = (a: number, b: number): string => (b ? `${((100 * a) / b).toFixed(1)} %` : '–');

/** The language fields the engine may report (ISO 639-1), read defensively: older engines have none. */
function languageOf(out: AsrOutput): { language?: string; probability?: number } {
  const o = out as AsrOutput & { language?: unknown; language_probability?: unknown };
  return {
    language: typeof o.language === 'string' ? o.language : undefined,
    probability: typeof o.language_probability === 'number' ? o.language_probability : undefined,
  };
}

function score(clip: SetClip, out: AsrOutput, wallSec: number): ClipResult {
  const words = out.words.map((w) => w.word);
  const hyp = words.join(' ');
  const { edits, refWords } = languageWer(clip.reference, hyp, clip.language);
  const refHes = clip.reference.split(/\s+/).filter((w) => isHesitationIn(w, clip.language)).length;
  let fillers: ClipResult['fillers'];
  if (refHes > 0)
    fillers = matchHesitations(
      { text: clip.reference, times: clip.hesitationTimes },
      out.words,
      clip.language,
    );
  const { language, probability } = languageOf(out);
  return {
    clip,
    detected: language,
    probability,
    edits,
    refWords,
    invented: clip.fluent ? inventedHesitations(words, clip.language) : 0,
    fillers,
    wallSec,
    hyp,
  };
}

/** A set's name with its part (`spliced-en/heldout`), so tuned and held-back clips are never pooled. */
const groupName = (c: SetClip): string => (c.part ? `${c.set}/${c.part}` : c.set);

function languageTable(results: ClipResult[]): string[] {
  const lines = [
    '| set | language | clips | speakers | language right | WER (pooled) | fluent clips | invented hesitations | RTF |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  const groups = new Map<string, ClipResult[]>();
  for (const r of results) {
    const k = `${groupName(r.clip)}\t${r.clip.language}`;
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  const row = (set: string, lang: string, rs: ClipResult[]) => {
    const sum = (f: (r: ClipResult) => number) => rs.reduce((s, r) => s + f(r), 0);
    const right = rs.filter((r) => r.detected === r.clip.language).length;
    const reported = rs.some((r) => r.detected !== undefined);
    const fluent = rs.filter((r) => r.clip.fluent);
    const rtf = sum((r) => r.wallSec) / sum((r) => r.clip.pcm.length / SAMPLE_RATE_HZ);
    return (
      `| ${set} | ${lang} | ${rs.length} | ${new Set(rs.map((r) => r.clip.speaker)).size} | ${reported ? `${right}/${rs.length}` : 'not reported'} | ` +
      `${pct(
        sum((r) => r.edits),
        sum((r) => r.refWords),
      )} | ${fluent.length} | ${fluent.reduce((s, r) => s + r.invented, 0)} | ${rtf.toFixed(2)} |`
    );
  };
  for (const [k, rs] of [...groups].sort()) lines.push(row(...(k.split('\t') as [string, string]), rs));
  const nonEnglish = results.filter((r) => r.clip.language !== 'en');
  if (nonEnglish.length) lines.push(row('all', 'non-English (pooled)', nonEnglish));
  // Read and spontaneous speech apart, where the sets say which a clip is.
  for (const style of [...new Set(nonEnglish.map((r) => r.clip.style).filter(Boolean))].sort())
    lines.push(
      row(
        'all',
        `non-English, ${style}`,
        nonEnglish.filter((r) => r.clip.style === style),
      ),
    );
  return lines;
}

function fillerTable(results: ClipResult[]): string[] {
  const lines = [
    '| set | language | clips | speakers | refs | found | matched | recall | precision | matched by |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  const groups = new Map<string, ClipResult[]>();
  for (const r of results.filter((x) => x.fillers)) {
    const k = `${groupName(r.clip)}\t${r.clip.language}`;
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  for (const [k, rs] of [...groups].sort()) {
    const [set, lang] = k.split('\t');
    const m = rs.reduce(
      (s, r) => ({ tp: s.tp + r.fillers!.tp, fp: s.fp + r.fillers!.fp, fn: s.fn + r.fillers!.fn }),
      {
        tp: 0,
        fp: 0,
        fn: 0,
      },
    );
    const { recall, precision } = fillerRates(m);
    const methods = [...new Set(rs.map((r) => r.fillers!.method))].join(', ');
    lines.push(
      `| ${set} | ${lang} | ${rs.length} | ${new Set(rs.map((r) => r.clip.speaker)).size} | ${m.tp + m.fn} | ${m.tp + m.fp} | ${m.tp} | ` +
        `${Number.isFinite(recall) ? `${(100 * recall).toFixed(1)} %` : '–'} | ${Number.isFinite(precision) ? `${(100 * precision).toFixed(1)} %` : '–'} | ${methods} |`,
    );
  }
  return lines;
}

async function main(): Promise<void> {
  const names = process.env.BENCH_SETS?.split(',').filter(Boolean);
  const parts = process.env.BENCH_PARTS?.split(',').filter(Boolean);
  const clips = (await loadSets(undefined, names)).filter((c) => !parts || !c.part || parts.includes(c.part));
  const force = process.env.BENCH_FORCE_LANGUAGE === '1';
  const vad = process.env.BENCH_VAD !== '0';
  const method = process.env.BENCH_METHOD ?? 'service';
  if (!HESITATION_METHODS[method])
    throw new Error(`BENCH_METHOD: one of ${Object.keys(HESITATION_METHODS).join(', ')}`);
  // The beam as the service's variable sets it (docs/speech-sets.md).
  const config = configFrom({
    ASR_ENGINE: process.env.BENCH_ENGINE ?? 'faster-whisper',
    ...(process.env.WHISPER_BEAM_SIZE ? { WHISPER_BEAM_SIZE: process.env.WHISPER_BEAM_SIZE } : {}),
  }).asr;
  await using engine =
    method === 'service'
      ? await createAsrEngine(config)
      : new FasterWhisperEngine(HESITATION_METHODS[method]);
  await engine.transcribe(clips[0].pcm); // warm: model load is not per clip
  const results: ClipResult[] = [];
  for (const clip of clips) {
    // `language` is the lead's extension of TranscribeOptions; older engines ignore it.
    const options = (force ? { language: clip.language } : {}) as TranscribeOptions;
    if (vad) options.speechSegments = await detectSpeech(clip.pcm, { maxBatch: DEFAULT_VAD_MAX_BATCH });
    const t0 = performance.now();
    const out = await engine.transcribe(clip.pcm, options);
    const r = score(clip, out, (performance.now() - t0) / 1000);
    results.push(r);
    if (process.env.BENCH_CLIPS) {
      console.log(
        `| ${clip.set}/${clip.file} | ${clip.language} → ${r.detected ?? '?'}${r.probability === undefined ? '' : ` (${r.probability.toFixed(2)})`} | ` +
          `${pct(r.edits, r.refWords)} | ${r.clip.fluent ? `invented ${r.invented}` : `fillers ${r.fillers ? `${r.fillers.tp}/${r.fillers.tp + r.fillers.fn}, ${r.fillers.fp} false` : '–'}`} | ${r.hyp} |`,
      );
    }
  }
  console.log(
    `\nengine ${engine.name}, method ${method}; language ${force ? 'forced to the clip’s' : 'detected by the engine'}; ${vad ? 'the speech Silero VAD found' : 'whole clips'}\n`,
  );
  for (const l of languageTable(results)) console.log(l);
  console.log('');
  for (const l of fillerTable(results)) console.log(l);
}

await main();
