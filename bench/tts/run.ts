/**
 * @module bench/tts/run
 * Voice benchmark (`npx tsx bench/tts/run.ts [--whisper MODEL_DIR] [--takes N] [--rtf-only]`): 20 varied sentences
 * (numbers, money, dates, times, names, abbreviations, questions) spoken by each voice of
 * voice_generator 0, side by side:
 * - `espeak-ng (raw)`: espeak-ng on the raw text, what generator 0 was before the Piper voice;
 * - `espeak-ng`: the fallback as shipped now (normalised text, `embedded.ts`);
 * - `piper`: the Piper voice en_US-joe-medium (onnxruntime-node).
 * Per voice: synthesis real-time factor (wall / audio, warm engine, one request at a time) and
 * round-trip intelligibility: the project's speech recogniser (`createAsrEngine(process.env)`,
 * the `AsrEngine` port: pocketsphinx or Whisper, whichever the deployment configures)
 * transcribes each WAV and the word error rate against the text is pooled over all 20. The
 * neural voice samples noise (VITS), so every take differs: its sentences are spoken `--takes`
 * times (default 6: with 3, the pooled WER of the same voice varied 4.3–5.6 % between runs) and
 * pooled; espeak-ng is deterministic and spoken once.
 * Reference and transcript are both put through the TTS normaliser first, so "$5" and "five
 * dollars" count as the same words. `--whisper DIR` also transcribes with faster-whisper
 * directly (bench/tts/whisper.py in .venv). Prints the machine's load average: RTF on a shared
 * 2-core machine is noisy: `--rtf-only` skips the recognisers for a quick re-measure when it is idle.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAsrEngine } from '../../containers/media/engines/asr/engine.js';
import { createEspeakEngine } from '../../containers/media/engines/tts/espeak.js';
import { normalizeText } from '../../containers/media/engines/tts/normalize.js';
import { createPiperEngine } from '../../containers/media/engines/tts/piper.js';
import { PIPER_VOICE_DIR_DEFAULT } from '../../containers/media/engines/tts/embedded.js';
import type { TtsEngine } from '../../containers/media/engines/tts/engine.js';
import { wordEdits, normaliseWords } from '../speech/wer.js';

export const SENTENCES = [
  'The meeting starts at 10:30 am on Tuesday, March 3rd, 2026.',
  'Dr. Amara Okonkwo counted 42 samples before lunch.',
  'Is the train to Portland still leaving at 7:15?',
  'We raised $1,250 for the library last spring.',
  'Sales grew by 12.5% in the third quarter.',
  'My grandmother was born in 1948 in a small village near Kraków.',
  'Could you send the report to Mr. Fitzgerald by Friday?',
  'The package weighs 3 kg and costs about €20.',
  'Turn left on Main St. and walk 200 meters to the bakery.',
  'Why did the 21st century begin in 2001 and not in 2000?',
  'Siobhan and Giuseppe moved to St. Louis in the 1990s.',
  'Please read chapters 4 to 9, e.g. the part about volcanoes.',
  'Our flight number is 857, departing on 2026-12-24.',
  'The temperature dropped to -5°C overnight.',
  'How many people live in Tokyo, roughly 14 million?',
  'Professor Nguyen answered 3 questions in 45 minutes.',
  'The quick brown fox jumps over the lazy dog.',
  'Tickets cost $7.50 for adults & $4 for children.',
  'Where did you park the car, near the 2nd entrance?',
  'On 12/31/1999 everyone waited for midnight.',
];

const SAMPLE_RATE_HZ = 16_000;

interface Voice {
  label: string;
  engine: TtsEngine;
  /** What the voice is given: the raw sentence, or its normalised form. */
  input: (text: string) => string;
  /** Same text, same samples: one take is enough. */
  deterministic: boolean;
}

function toPcm16k(wavPath: string): Int16Array {
  const raw = execFileSync('ffmpeg', ['-v', 'error', '-i', wavPath, '-ac', '1', '-ar', String(SAMPLE_RATE_HZ), '-f', 's16le', 'pipe:1'], { maxBuffer: 1 << 28 });
  return new Int16Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + (raw.byteLength & ~1)));
}

/**
 * Pure: Whisper writes clock times as "7.15" / "10.30am"; where the reference has that time
 * ("7:15"), the transcript's spelling is made the same, so a format is not counted as an error.
 */
export function sameTimeFormat(reference: string, hypothesis: string): string {
  let out = hypothesis;
  for (const [, h, m] of reference.matchAll(/\b(\d{1,2}):(\d{2})\b/g)) out = out.replace(new RegExp(`\\b${h}\\.${m}(?=\\s?[ap]\\.?m\\b|\\b)`, 'g'), `${h}:${m} `);
  return out.replace(/(\d:\d{2}) ([ap])\.?m\b\.?/gi, '$1 $2m');
}

/** "Kraków" and "Krakow" are the same word to a listener (wer.ts would split "krak w"). */
const plainLetters = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '');

/** Pooled WER over sentences, both sides normalised as the voice would speak them. */
function pooledWer(refs: string[], hyps: string[]): { wer: number; edits: number; words: number } {
  let edits = 0;
  let words = 0;
  refs.forEach((r, i) => {
    const ref = normaliseWords(plainLetters(normalizeText(r)));
    edits += wordEdits(ref, normaliseWords(plainLetters(normalizeText(sameTimeFormat(r, hyps[i] ?? '')))));
    words += ref.length;
  });
  return { wer: edits / words, edits, words };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const whisperDir = args.includes('--whisper') ? args[args.indexOf('--whisper') + 1] : undefined;
  const takes = args.includes('--takes') ? Number(args[args.indexOf('--takes') + 1]) : 6;
  const rtfOnly = args.includes('--rtf-only');
  const tmp = mkdtempSync(join(tmpdir(), 'bench-tts-'));
  const voices: Voice[] = [
    { label: 'espeak-ng (raw)', engine: createEspeakEngine(), input: (t) => t, deterministic: true },
    { label: 'espeak-ng', engine: createEspeakEngine(), input: normalizeText, deterministic: true },
    { label: 'piper en_US-joe-medium', engine: createPiperEngine({ voiceDir: process.env.PIPER_VOICE_DIR || PIPER_VOICE_DIR_DEFAULT }), input: (t) => t, deterministic: false },
  ];
  using asr = await createAsrEngine(process.env);
  console.log(`load average before: ${loadavg().map((l) => l.toFixed(2)).join(' ')} (2 cores); recogniser: ${asr.name}`);
  const table: string[] = [];
  const detail: string[] = [];
  try {
    for (const voice of voices) {
      await voice.engine.synthesize({ text: 'Warm up.' }); // model load is not synthesis time
      let wallSec = 0;
      let audioSec = 0;
      const paths: string[] = [];
      const refs: string[] = [];
      const hyps: string[] = [];
      for (let take = 0; take < (voice.deterministic ? 1 : takes); take++) {
        for (const [i, sentence] of SENTENCES.entries()) {
          const t0 = performance.now();
          const res = await voice.engine.synthesize({ text: voice.input(sentence) });
          wallSec += (performance.now() - t0) / 1000;
          audioSec += res.durationSec;
          const path = join(tmp, `${voice.label.replace(/\W+/g, '_')}-${take}-${i}.wav`);
          writeFileSync(path, res.wav);
          paths.push(path);
          refs.push(sentence);
        }
      }
      for (const path of rtfOnly ? [] : paths) {
        const out = await asr.transcribe(toPcm16k(path));
        hyps.push(out.words.map((w) => w.word).join(' '));
      }
      const port = rtfOnly ? { wer: NaN, edits: 0, words: 0 } : pooledWer(refs, hyps);
      let whisperCell = 'n/a';
      if (whisperDir && !rtfOnly) {
        const python = fileURLToPath(new URL('../../.venv/bin/python', import.meta.url));
        const script = fileURLToPath(new URL('./whisper.py', import.meta.url));
        const lines = execFileSync(python, [script, whisperDir, ...paths], { encoding: 'utf8', maxBuffer: 1 << 24 }).trim().split('\n');
        const byPath = new Map(lines.map((l) => JSON.parse(l) as { path: string; text: string }).map((o) => [o.path, o.text]));
        const whisperHyps = paths.map((p) => byPath.get(p) ?? '');
        const w = pooledWer(refs, whisperHyps);
        whisperCell = `${(100 * w.wer).toFixed(1)} % (${w.edits}/${w.words})`;
        whisperHyps.forEach((h, i) => detail.push(`| ${voice.label} | whisper | ${refs[i]} | ${h} |`));
      }
      hyps.forEach((h, i) => detail.push(`| ${voice.label} | ${asr.name} | ${refs[i]} | ${h} |`));
      table.push(`| ${voice.label} (${voice.deterministic ? 1 : takes}) | ${audioSec.toFixed(1)} | ${wallSec.toFixed(2)} | ${(wallSec / audioSec).toFixed(3)} | ${(100 * port.wer).toFixed(1)} % (${port.edits}/${port.words}) | ${whisperCell} |`);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`load average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`\n| voice (takes) | audio s | synth wall s | RTF | WER via port (${asr.name}) | WER via faster-whisper base |`);
  console.log('|---|---|---|---|---|---|');
  for (const row of table) console.log(row);
  console.log('\n| voice | recogniser | text | transcript |\n|---|---|---|---|');
  for (const row of detail) console.log(row);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
