/**
 * @module bench/speech/speed
 * The speech engine's time on a minute of speech beside the bare model's own time on the same
 * file (`npx tsx bench/speech/speed.ts [FILE…]`; issue 38's "speed kept").
 *
 * Files: the speech gate's English minute (`speechMp3`, as `bench/gates` uploads it) and, when the
 * evaluation sets are there (`SPEECH_SETS_DIR`, docs/speech-sets.md), a minute of each language of
 * `BENCH_LANGUAGES` (default `de`): the `multilingual` set's read clips of that language 0.7 s
 * apart, cut at 60 s, as MP3; then any FILE given.
 *
 * Per file, one run each, warm:
 * - the service's path in the container: the edge's Silero VAD (`detectSpeech`, batched as the
 *   service batches it), then the engine (`createAsrEngine`: Whisper base, the language detected,
 *   the disfluent prompt, the hesitation scan, English words aligned);
 * - the bare model (`bare_whisper.py`): Whisper base as faster-whisper runs it out of the box on
 *   the whole file, with CTranslate2's default threads.
 * The whole job through `npm start` (upload, probe, prosody, result) is `bench/gates`; its goal for
 * a minute of speech is 9 s.
 */
// First: the VAD's model and runtime are `.onnx` and `.wasm` imports (loaded on first use).
import '../support/wasm-modules.mjs';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAsrEngine } from '../../containers/media/engines/asr/index.js';
import { DEFAULT_WHISPER_MODEL_DIR } from '../../containers/media/engines/asr/faster-whisper.js';
import { configFrom } from '../../containers/media/core/config.js';
import { venvPython } from '../../containers/media/core/venv.js';
import { DEFAULT_VAD_MAX_BATCH } from '../../src/pipeline/steps/audio.js';
import { detectSpeech } from '../../wasm/index.js';
import { ffmpeg, speechMp3 } from '../support/media.js';
import { decodeToPcm } from './corpus.js';
import { JOIN_GAP_SEC, joinClips, loadSets, SETS_DIR } from './sets.js';
import { GATES } from '../gates/gates.js';

const SAMPLE_RATE_HZ = 16_000;
const MINUTE_SEC = 60;
const BARE_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'bare_whisper.py');

interface Bare {
  wall_s: number;
  cpu_s: number;
  language: string;
  language_probability: number;
  words: number;
}

const dir = mkdtempSync(join(tmpdir(), 'speech-speed-'));
try {
  const files: Array<{ label: string; path: string }> = [
    { label: 'English: the speech gate’s minute', path: speechMp3(dir, MINUTE_SEC) },
  ];
  if (existsSync(join(SETS_DIR, 'multilingual'))) {
    const clips = await loadSets(undefined, ['multilingual']);
    for (const language of (process.env.BENCH_LANGUAGES ?? 'de').split(',').filter(Boolean)) {
      const read = clips.filter((c) => c.language === language && c.style === 'read');
      if (!read.length) continue;
      const pcm = joinClips(read, JOIN_GAP_SEC).subarray(0, MINUTE_SEC * SAMPLE_RATE_HZ);
      const raw = join(dir, `${language}.raw`);
      writeFileSync(raw, pcm);
      const path = join(dir, `${language}-60s.mp3`);
      ffmpeg('-f', 's16le', '-ar', String(SAMPLE_RATE_HZ), '-ac', '1', '-i', raw, '-b:a', '128k', path);
      files.push({ label: `${language}: the multilingual set's read clips`, path });
    }
  }
  for (const path of process.argv.slice(2)) files.push({ label: path, path });

  await using engine = await createAsrEngine(configFrom({ ASR_ENGINE: 'faster-whisper' }).asr);
  // Warm: the models' loads are not per file.
  const warm = (await decodeToPcm(files[0].path)).subarray(0, 3 * SAMPLE_RATE_HZ);
  await engine.transcribe(warm, {
    speechSegments: await detectSpeech(warm, { maxBatch: DEFAULT_VAD_MAX_BATCH }),
  });
  console.log(
    '| file | s | language: engine / bare | VAD s | engine s | VAD + engine s | bare model s (its CPU s) | (VAD + engine) ÷ bare | words: engine / bare |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const { label, path } of files) {
    const pcm = await decodeToPcm(path);
    const t0 = performance.now();
    const speech = await detectSpeech(pcm, { maxBatch: DEFAULT_VAD_MAX_BATCH });
    const t1 = performance.now();
    const out = await engine.transcribe(pcm, { speechSegments: speech });
    const t2 = performance.now();
    const bare = JSON.parse(
      execFileSync(venvPython(), [BARE_SCRIPT, DEFAULT_WHISPER_MODEL_DIR, path], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .at(-1)!,
    ) as Bare;
    const ours = (t2 - t0) / 1000;
    console.log(
      `| ${label} | ${(pcm.length / SAMPLE_RATE_HZ).toFixed(0)} | ${out.language} (${out.language_probability?.toFixed(2)}) / ${bare.language} (${bare.language_probability.toFixed(2)}) | ` +
        `${((t1 - t0) / 1000).toFixed(1)} | ${((t2 - t1) / 1000).toFixed(1)} | ${ours.toFixed(1)} | ${bare.wall_s.toFixed(1)} (${bare.cpu_s.toFixed(1)}) | ` +
        `${(ours / bare.wall_s).toFixed(2)} | ${out.words.length} / ${bare.words} |`,
    );
  }
  console.log(
    `\nThe whole job (upload, probe, prosody, result) through \`npm start\` is bench/gates: goal ≤ ${GATES.speech.max} s for a minute of speech.`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
