/**
 * @module bench/speech/long-form
 * Long-form speech per language (`SPEECH_SETS_DIR=… npx tsx bench/speech/long-form.ts`): the clips
 * of the `multilingual` set (`sets.ts`) of each language and style joined into one file, 0.7 s
 * apart, and decoded as a job decodes a file (the speech the edge's Silero VAD finds, one
 * utterance of ≤ 28 s per request). Clips of 3–20 s are each one utterance; a minute of them is
 * several, each long enough for Whisper to skip a sentence or loop. Prints per file: WER against
 * the joined references (`score.ts`), words, the seconds of the VAD's speech left without a word
 * near it (`uncoveredSpeechSec`, what the engine's skipped-speech check reads), the engine's
 * second decodes (loops, skipped speech) and wall time. `BENCH_RUNS=3` decodes each file that
 * many times and says whether the words were the same every time.
 */
// First: the VAD's model and runtime are `.onnx` and `.wasm` imports (loaded on first use).
import '../support/wasm-modules.mjs';
import { createAsrEngine } from '../../containers/media/engines/asr/index.js';
import { uncoveredSpeechSec } from '../../containers/media/engines/asr/segments.js';
import { WORD_TIME_MARGIN_SEC } from '../../containers/media/engines/asr/whisper-filter.js';
import { configFrom } from '../../containers/media/core/config.js';
import { DEFAULT_VAD_MAX_BATCH } from '../../src/pipeline/steps/audio.js';
import { detectSpeech } from '../../wasm/index.js';
import { languageWer } from './score.js';
import { JOIN_GAP_SEC, joinClips, loadSets } from './sets.js';

const SAMPLE_RATE_HZ = 16_000;
const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 1));

const clips = await loadSets(undefined, ['multilingual']);
await using engine = await createAsrEngine(configFrom({ ASR_ENGINE: 'faster-whisper' }).asr);
await engine.transcribe(clips[0].pcm); // warm: model load is not per file
console.log(
  '| language | style | clips | seconds | WER | words (reference) | speech without words, s | second decodes (loop / skipped speech) | same words every run | wall s |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
const groups = [...new Set(clips.map((c) => `${c.language}\t${c.style}`))].sort();
for (const group of groups) {
  const [language, style] = group.split('\t');
  const members = clips.filter((c) => c.language === language && c.style === style);
  if (members.length < 2) continue;
  const pcm = joinClips(members, JOIN_GAP_SEC);
  const speech = await detectSpeech(pcm, { maxBatch: DEFAULT_VAD_MAX_BATCH });
  const texts: string[] = [];
  // The first run's figures; the runs after it only say whether the words stayed the same.
  let cells: string[] = [];
  for (let run = 0; run < runs; run++) {
    const t0 = performance.now();
    const out = await engine.transcribe(pcm, { speechSegments: speech });
    const wallSec = (performance.now() - t0) / 1000;
    const hyp = out.words.map((w) => w.word).join(' ');
    texts.push(hyp);
    if (run > 0) continue;
    const { wer, refWords } = languageWer(members.map((c) => c.reference).join(' '), hyp, language);
    const durationSec = pcm.length / SAMPLE_RATE_HZ;
    const uncovered = uncoveredSpeechSec(
      { start: 0, end: durationSec },
      speech,
      out.words,
      WORD_TIME_MARGIN_SEC,
    );
    const stats = engine.lastRun;
    cells = [
      language,
      style,
      String(members.length),
      durationSec.toFixed(0),
      `${(100 * wer).toFixed(1)} %`,
      `${out.words.length} (${refWords})`,
      uncovered.toFixed(1),
      `${stats?.loopRedecodes ?? 0} / ${stats?.skippedSpeechRedecodes ?? 0}`,
      wallSec.toFixed(1),
    ];
  }
  const same = runs === 1 ? '–' : texts.every((t) => t === texts[0]) ? `yes (${runs})` : `no (${runs})`;
  console.log(`| ${[...cells.slice(0, -1), same, cells.at(-1)].join(' | ')} |`);
}
