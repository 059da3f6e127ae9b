/**
 * @module bench/tts/run
 * Voice benchmark (`npx tsx bench/tts/run.ts [--whisper MODEL_DIR] [--takes N] [--rtf-only]
 * [--beams 1,5] [--errors] [--set bench|heldout] [--voices espeak-raw,espeak,piper]
 * [--length-scale X] [--noise-scale X] [--noise-w X]`): 20 varied sentences
 * (numbers, money, dates, times, names, abbreviations, questions) spoken by each voice of
 * voice_generator 0, side by side:
 * - `espeak-ng (raw)`: espeak-ng on the raw text, what generator 0 was before the Piper voice;
 * - `espeak-ng`: the fallback as shipped now (normalised text, `embedded.ts`);
 * - `piper`: the Piper voice en_US-joe-medium (onnxruntime-node).
 * Per voice: synthesis real-time factor (wall / audio, warm engine, one request at a time) and
 * round-trip intelligibility: the project's speech recogniser (`createAsrEngine()`,
 * the `AsrEngine` port: pocketsphinx or Whisper, whichever the deployment configures)
 * transcribes each WAV and the word error rate against the text is pooled over all 20. The
 * neural voice samples noise (VITS), so every take differs: its sentences are spoken `--takes`
 * times (default 10: with 6, runs of the same setting differed by up to 0.8 points) and pooled,
 * and each take's own WER is printed (mean ± standard error, range) to judge a difference by;
 * espeak-ng is deterministic and spoken once.
 * Reference and transcript are both put through the TTS normaliser first, so "$5" and "five
 * dollars" count as the same words. `--whisper DIR` also transcribes with faster-whisper
 * directly (bench/tts/whisper.py in .venv). Prints the machine's load average: RTF on a shared
 * 2-core machine is noisy: `--rtf-only` skips the recognisers for a quick re-measure when it is idle.
 * `--beams` decodes every take at each Whisper beam width (ascending; default `WHISPER_BEAM_SIZE`,
 * else the recogniser's default, 5); `--errors` lists each sentence's error stretches per beam, the recogniser's slips
 * (wrong at the first beam, right at the last on the same take) and what no beam recovers, with
 * the espeak-ng phonemes the voices were given for it. `--set heldout` speaks the 40 tuning
 * sentences of `heldout.ts` instead; the Piper synthesis parameters are chosen on those only.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAsrEngine } from '../../containers/media/engines/asr/engine.js';
import { DEFAULT_WHISPER_BEAM_SIZE } from '../../containers/media/engines/asr/faster-whisper.js';
import { createEspeakEngine } from '../../containers/media/engines/tts/espeak.js';
import { normalizeText } from '../../containers/media/engines/tts/normalize.js';
import { createPiperEngine } from '../../containers/media/engines/tts/piper.js';
import { PIPER_VOICE_DIR_DEFAULT } from '../../containers/media/engines/tts/embedded.js';
import type { TtsEngine } from '../../containers/media/engines/tts/engine.js';
import { espeakIpa } from '../../containers/media/engines/tts/phonemes.js';
import { wordEdits, normaliseWords } from '../speech/wer.js';
import { errorSpans, recoveredBy, tallySpans, type ErrorSpan } from './errors.js';
import { plainLetters, sameFormat } from './score.js';
import { HELDOUT_SENTENCES } from './heldout.js';
import { configFrom } from '../../containers/media/core/config.js';

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
  /** Name for `--voices`: espeak-raw, espeak, piper. */
  key: string;
  label: string;
  engine: TtsEngine;
  /** What the voice is given: the raw sentence, or its normalised form. */
  input: (text: string) => string;
  /** Same text, same samples: one take is enough. */
  deterministic: boolean;
}

function toPcm16k(wavPath: string): Int16Array {
  const raw = execFileSync(
    'ffmpeg',
    ['-v', 'error', '-i', wavPath, '-ac', '1', '-ar', String(SAMPLE_RATE_HZ), '-f', 's16le', 'pipe:1'],
    { maxBuffer: 1 << 28 },
  );
  return new Int16Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + (raw.byteLength & ~1)));
}

/** Pooled WER over sentences, both sides normalised as the voice would speak them. */
function pooledWer(refs: string[], hyps: string[]): { wer: number; edits: number; words: number } {
  let edits = 0;
  let words = 0;
  refs.forEach((r, i) => {
    const ref = normaliseWords(plainLetters(normalizeText(r)));
    edits += wordEdits(ref, normaliseWords(plainLetters(normalizeText(sameFormat(r, hyps[i] ?? '')))));
    words += ref.length;
  });
  return { wer: edits / words, edits, words };
}

/**
 * Each take's pooled WER (refs and hyps are take after take, `perTake` sentences each): their
 * mean, standard error and range, so two settings can be told apart from the takes' own spread.
 */
function takeSpread(refs: string[], hyps: string[], perTake: number): string {
  const wers: number[] = [];
  for (let t = 0; t * perTake < refs.length; t++) {
    const at = t * perTake;
    wers.push(100 * pooledWer(refs.slice(at, at + perTake), hyps.slice(at, at + perTake)).wer);
  }
  const mean = wers.reduce((a, b) => a + b, 0) / wers.length;
  const sd = Math.sqrt(wers.reduce((a, w) => a + (w - mean) ** 2, 0) / Math.max(1, wers.length - 1));
  const se = sd / Math.sqrt(wers.length);
  return `${mean.toFixed(2)} ± ${se.toFixed(2)} % (${Math.min(...wers).toFixed(1)}–${Math.max(...wers).toFixed(1)}) : ${wers.map((w) => w.toFixed(1)).join(' ')}`;
}

/** `--name value` from the command line, else `fallback`. */
function option(args: string[], name: string, fallback?: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
}

const numberOption = (args: string[], name: string): number | undefined => {
  const v = option(args, name);
  return v === undefined ? undefined : Number(v);
};

/** One voice's takes as decoded by one recogniser: references, transcripts and the pooled WER. */
interface Decoding {
  label: string;
  hyps: string[];
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const whisperDir = option(args, '--whisper');
  const takes = Number(option(args, '--takes', '10'));
  const rtfOnly = args.includes('--rtf-only');
  const listErrors = args.includes('--errors');
  const set = option(args, '--set', 'bench');
  const sentences = set === 'heldout' ? HELDOUT_SENTENCES : SENTENCES;
  const only = option(args, '--voices')?.split(',');
  const beams = (
    option(args, '--beams', process.env.WHISPER_BEAM_SIZE || String(DEFAULT_WHISPER_BEAM_SIZE)) ?? ''
  )
    .split(',')
    .map(Number);
  const piperParams = {
    lengthScale: numberOption(args, '--length-scale'),
    noiseScale: numberOption(args, '--noise-scale'),
    noiseW: numberOption(args, '--noise-w'),
  };
  const tmp = mkdtempSync(join(tmpdir(), 'bench-tts-'));
  const allVoices: Voice[] = [
    {
      key: 'espeak-raw',
      label: 'espeak-ng (raw)',
      engine: createEspeakEngine(),
      input: (t) => t,
      deterministic: true,
    },
    {
      key: 'espeak',
      label: 'espeak-ng',
      engine: createEspeakEngine(),
      input: normalizeText,
      deterministic: true,
    },
    {
      key: 'piper',
      label: 'piper en_US-joe-medium',
      engine: createPiperEngine({
        voiceDir: process.env.PIPER_VOICE_DIR || PIPER_VOICE_DIR_DEFAULT,
        ...piperParams,
      }),
      input: (t) => t,
      deterministic: false,
    },
  ];
  const voices = allVoices.filter((v) => !only || only.includes(v.key));
  const recognisers = rtfOnly
    ? []
    : await Promise.all(
        beams.map((b) => createAsrEngine(configFrom({ ...process.env, WHISPER_BEAM_SIZE: String(b) }).asr)),
      );
  console.log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(
        ' ',
      )} (2 cores); set: ${set} (${sentences.length}); recogniser: ${recognisers[0]?.name ?? 'none'} at beam ${beams.join(', ')}; piper ${JSON.stringify(piperParams)}`,
  );
  const table: string[] = [];
  const detail: string[] = [];
  const listing: string[] = [];
  const spread: string[] = [];
  try {
    for (const voice of voices) {
      await voice.engine.synthesize({ text: 'Warm up.' }); // model load is not synthesis time
      let wallSec = 0;
      let audioSec = 0;
      const paths: string[] = [];
      const refs: string[] = [];
      for (let take = 0; take < (voice.deterministic ? 1 : takes); take++) {
        for (const [i, sentence] of sentences.entries()) {
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
      const decodings: Decoding[] = [];
      for (const [k, asr] of recognisers.entries()) {
        const hyps: string[] = [];
        for (const path of paths)
          hyps.push((await asr.transcribe(toPcm16k(path))).words.map((w) => w.word).join(' '));
        decodings.push({ label: `beam ${beams[k]}`, hyps });
      }
      const cells = decodings.map((d) => {
        const w = pooledWer(refs, d.hyps);
        return `${(100 * w.wer).toFixed(1)} % (${w.edits}/${w.words})`;
      });
      for (const d of decodings)
        spread.push(`| ${voice.label} | ${d.label} | ${takeSpread(refs, d.hyps, sentences.length)} |`);
      let whisperCell = 'n/a';
      if (whisperDir && !rtfOnly) {
        const python = fileURLToPath(new URL('../../.venv/bin/python', import.meta.url));
        const script = fileURLToPath(new URL('./whisper.py', import.meta.url));
        const lines = execFileSync(python, [script, whisperDir, ...paths], {
          encoding: 'utf8',
          maxBuffer: 1 << 24,
        })
          .trim()
          .split('\n');
        const byPath = new Map(
          lines.map((l) => JSON.parse(l) as { path: string; text: string }).map((o) => [o.path, o.text]),
        );
        const whisperHyps = paths.map((p) => byPath.get(p) ?? '');
        const w = pooledWer(refs, whisperHyps);
        whisperCell = `${(100 * w.wer).toFixed(1)} % (${w.edits}/${w.words})`;
        whisperHyps.forEach((h, i) => detail.push(`| ${voice.label} | whisper | ${refs[i]} | ${h} |`));
      }
      for (const d of decodings)
        d.hyps.forEach(
          (h, i) =>
            i < sentences.length && detail.push(`| ${voice.label} | ${d.label} | ${refs[i]} | ${h} |`),
        );
      if (listErrors && decodings.length)
        listing.push(...(await errorListing(voice.label, sentences, refs, decodings)));
      table.push(
        `| ${voice.label} (${voice.deterministic ? 1 : takes}) | ${audioSec.toFixed(1)} | ${wallSec.toFixed(2)} | ${(wallSec / audioSec).toFixed(3)} | ${cells.join(' | ')} | ${whisperCell} |`,
      );
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    for (const asr of recognisers) await asr.dispose();
  }
  console.log(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `\n| voice (takes) | audio s | synth wall s | RTF | ${beams.map((b) => `WER via port, beam ${b}`).join(' | ')} | WER via faster-whisper base directly |`,
  );
  console.log(`|---|---|---|---|${beams.map(() => '---|').join('')}---|`);
  for (const row of table) console.log(row);
  if (spread.length) {
    console.log(
      '\n| voice | decoding | WER per take: mean ± standard error (min–max) : takes |\n|---|---|---|',
    );
    for (const row of spread) console.log(row);
  }
  if (listing.length) {
    const [first, last] = [beams[0], beams.at(-1)];
    console.log(
      `\n| voice | sentence | ${beams.map((b) => `errors beam ${b}`).join(' | ')} | recogniser slips: wrong at beam ${first}, right at beam ${last} (same take) | not recovered at beam ${last}: reference [espeak-ng IPA] → heard |`,
    );
    console.log(`|---|---|${beams.map(() => '---|').join('')}---|---|`);
    for (const row of listing) console.log(row);
  }
  console.log('\n| voice | recogniser | text | transcript (first take) |\n|---|---|---|---|');
  for (const row of detail) console.log(row);
}

/** Words as the WER counts them (normalised as spoken, diacritics folded). */
const spokenWords = (reference: string, text: string) =>
  normaliseWords(plainLetters(normalizeText(sameFormat(reference, text))));

/**
 * Per sentence, pooled over takes: the error stretches at each beam, and the ones the widest
 * beam does not recover on the same audio, with the phonemes the voice was given for them
 * (espeak-ng's IPA: what Piper and espeak-ng say), so a misspelt name can be told from a
 * mispronounced one without listening.
 */
async function errorListing(
  voice: string,
  sentences: readonly string[],
  refs: string[],
  decodings: Decoding[],
): Promise<string[]> {
  const rows: string[] = [];
  const widest = decodings.at(-1)!;
  for (const [s, sentence] of sentences.entries()) {
    const ref = spokenWords(sentence, sentence);
    const perBeam = decodings.map(() => [] as ErrorSpan[]);
    const persistent: ErrorSpan[] = [];
    const slips: ErrorSpan[] = []; // wrong at the first beam, right at the widest on the same take
    const edits = decodings.map(() => 0);
    refs.forEach((r, i) => {
      if (r !== sentence) return;
      decodings.forEach((d, k) => {
        const hyp = spokenWords(sentence, d.hyps[i]);
        perBeam[k].push(...errorSpans(ref, hyp));
        edits[k] += wordEdits(ref, hyp);
      });
      const wide = spokenWords(sentence, widest.hyps[i]);
      persistent.push(...errorSpans(ref, wide));
      slips.push(
        ...errorSpans(ref, spokenWords(sentence, decodings[0].hyps[i])).filter((span) =>
          recoveredBy(ref, wide, span),
        ),
      );
    });
    if (edits.every((e) => e === 0)) continue;
    const ipa = new Map<string, string>();
    for (const span of persistent)
      if (span.ref && !ipa.has(span.ref)) ipa.set(span.ref, await espeakIpa(span.ref));
    const persistentCell = tallySpans(persistent)
      .map((line) => line.replace(/^(.+?) →/, (_m, r: string) => `${r} [${ipa.get(r) ?? ''}] →`))
      .join('; ');
    rows.push(
      `| ${voice} | ${s + 1}. ${sentence} | ${perBeam.map((spans, k) => `${edits[k]}: ${tallySpans(spans).join('; ')}`).join(' | ')} | ${tallySpans(slips).join('; ')} | ${persistentCell} |`,
    );
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
