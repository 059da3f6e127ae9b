/**
 * @module containers/media/engines/asr/align
 * Forced alignment of known text to speech with npm `soundswallower` (pocketsphinx compiled to
 * WebAssembly, shipping its own en-us acoustic model and 134k-word CMU dictionary). Used for
 * synthesized speech whose text is known, and by the benchmarks to check word timings.
 *
 * Out-of-vocabulary words: a word missing from soundswallower's dictionary is looked up in
 * Debian's cmudict (same ARPAbet phone set) when installed and added; a word still unknown
 * (numbers, names) is left out of the alignment and given the time between its aligned
 * neighbours, shared by letter count, with confidence 0. The decoder is WebAssembly and
 * synchronous, so calls are serialised.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TimedWord } from '../../../../src/contract/media.js';
import { AsrEngineError, AsrInputError } from './errors.js';
import { ASR_SAMPLE_RATE_HZ, pcmToFloat32 } from './pcm.js';

type SoundSwallower = Awaited<ReturnType<typeof import('soundswallower').default>>;
type Decoder = InstanceType<SoundSwallower['Decoder']>;

/** Debian's larger dictionary, consulted for words soundswallower lacks. */
const EXTRA_DICT_PATH = '/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict';

/** One word/phone of soundswallower's alignment: text, begin and duration (s), probability. */
interface AlignSegment {
  t: string;
  b: number;
  d: number;
  p: number;
}

let decoderPromise: Promise<Decoder> | undefined;
let queue: Promise<unknown> = Promise.resolve();
let extraDict: Map<string, string> | undefined;

/** Normalises text to dictionary tokens: lowercase words, apostrophes kept, punctuation dropped. */
export function alignTokens(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[^a-z0-9'\s-]+/g, ' ')
    .replace(/-/g, ' ')
    .split(/\s+/)
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter(Boolean);
}

/**
 * Aligns `text` to `pcm` (16 kHz mono s16) and returns one TimedWord per token of the text.
 * @throws AsrInputError for empty text or audio; AsrEngineError when alignment fails.
 * @example const words = await alignText(pcm, 'go forward ten meters');
 */
export function alignText(pcm: Int16Array, text: string): Promise<TimedWord[]> {
  const tokens = alignTokens(text);
  if (tokens.length === 0) return Promise.reject(new AsrInputError('invalid_text', 'alignment text has no words'));
  if (pcm.length === 0) return Promise.reject(new AsrInputError('invalid_audio', 'audio is empty'));
  const run = queue.then(async () => alignWithDecoder(await getDecoder(), pcm, tokens));
  queue = run.catch(() => {});
  return run;
}

async function getDecoder(): Promise<Decoder> {
  decoderPromise ??= (async () => {
    const { default: createModule } = await import('soundswallower');
    const entry = fileURLToPath(import.meta.resolve('soundswallower'));
    const ss = await createModule({ modelBase: `${join(dirname(entry), 'model')}/` } as never);
    const decoder = new ss.Decoder({ samprate: ASR_SAMPLE_RATE_HZ, loglevel: 'ERROR' });
    await decoder.initialize();
    return decoder;
  })();
  decoderPromise.catch(() => {
    decoderPromise = undefined;
  });
  return decoderPromise;
}

function alignWithDecoder(decoder: Decoder, pcm: Int16Array, tokens: string[]): TimedWord[] {
  const known = tokens.map((t) => ensureWord(decoder, t));
  const inVocab = tokens.filter((_, i) => known[i]);
  const durationSec = pcm.length / ASR_SAMPLE_RATE_HZ;
  if (inVocab.length === 0) return interpolate(tokens, known, [], durationSec);
  let aligned: Array<{ word: string; start: number; end: number; confidence: number }>;
  try {
    decoder.set_align_text(inVocab.join(' '));
    decoder.start();
    decoder.process_audio(pcmToFloat32(pcm), false, true);
    decoder.stop();
    aligned = ((decoder.get_alignment().w ?? []) as AlignSegment[])
      .filter((s) => !/^(<s>|<\/s>|<sil>|\[.*\]|\+\+.*\+\+)$/.test(s.t))
      .map((s) => ({ word: s.t.replace(/\(\d+\)$/, ''), start: s.b, end: s.b + s.d, confidence: s.p }));
  } catch (err) {
    throw new AsrEngineError(`forced alignment failed: ${(err as Error).message}`, { cause: err });
  }
  if (aligned.length !== inVocab.length) {
    throw new AsrEngineError(
      `forced alignment failed: aligned ${aligned.length} of ${inVocab.length} words (does the text match the audio?)`,
    );
  }
  return interpolate(tokens, known, aligned, durationSec);
}

/** True if the decoder knows `word`, adding it from the extra dictionary when possible. */
function ensureWord(decoder: Decoder, word: string): boolean {
  if (decoder.lookup_word(word)) return true;
  const pron = loadExtraDict().get(word);
  if (!pron) return false;
  decoder.add_words([word, pron]);
  return true;
}

function loadExtraDict(): Map<string, string> {
  if (extraDict) return extraDict;
  extraDict = new Map();
  if (existsSync(EXTRA_DICT_PATH)) {
    for (const line of readFileSync(EXTRA_DICT_PATH, 'utf8').split('\n')) {
      const space = line.indexOf(' ');
      if (space > 0 && !line.includes('(')) extraDict.set(line.slice(0, space), line.slice(space + 1).trim());
    }
  }
  return extraDict;
}

/**
 * Pure: rebuilds the full token list, giving out-of-vocabulary tokens the gap between their
 * aligned neighbours (or the audio bounds), split by letter count, confidence 0.
 */
export function interpolate(
  tokens: string[],
  known: boolean[],
  aligned: Array<{ start: number; end: number; confidence: number }>,
  durationSec: number,
): TimedWord[] {
  const out: TimedWord[] = [];
  let a = 0;
  for (let i = 0; i < tokens.length; ) {
    if (known[i]) {
      const w = aligned[a++];
      out.push({ word: tokens[i], start: r3(w.start), end: r3(w.end), confidence: r3(Math.min(1, Math.max(0, w.confidence))) });
      i++;
      continue;
    }
    let j = i;
    while (j < tokens.length && !known[j]) j++;
    const from = out.at(-1)?.end ?? 0;
    const to = a < aligned.length ? aligned[a].start : durationSec;
    const letters = tokens.slice(i, j).reduce((s, t) => s + t.length, 0);
    let t = from;
    for (let k = i; k < j; k++) {
      const span = ((to - from) * tokens[k].length) / letters;
      out.push({ word: tokens[k], start: r3(t), end: r3(t + span), confidence: 0 });
      t += span;
    }
    i = j;
  }
  return out;
}

const r3 = (x: number): number => Math.round(x * 1000) / 1000;
