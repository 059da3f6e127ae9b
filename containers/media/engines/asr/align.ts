/**
 * @module containers/media/engines/asr/align
 * Forced alignment of known text to speech with npm `soundswallower` (pocketsphinx compiled to
 * WebAssembly, shipping its own en-us acoustic model and 134k-word CMU dictionary). Used for
 * synthesized speech whose text is known, and by the benchmarks to check word timings.
 *
 * Why phrase by phrase: with its default optional silences between words (`fsgusefiller`),
 * soundswallower's grammar search often ends outside the final state on espeak-ng speech
 * ("Final result does not match the grammar"), even for one 11-word sentence and at any beam;
 * without them it aligns, but one long grammar then needs very wide beams and pauses get
 * swallowed by the neighbouring words. So the audio is split at its pauses and the text at its
 * punctuation (`align-pauses.ts`, `align-chunks.ts`), and each chunk is aligned on its own:
 * first with optional silences, then without, then with wider beams; a chunk that still fails
 * is re-planned at all its pauses, then merged with the next one.
 *
 * Out-of-vocabulary words: a word missing from soundswallower's dictionary is looked up in
 * Debian's cmudict (same ARPAbet phone set), else spelled by espeak-ng (`align-g2p.ts`:
 * numbers, names); only a word neither knows is left out and given the time between its aligned
 * neighbours, shared by letter count, with confidence 0. The decoder is WebAssembly and
 * synchronous, so calls are serialised; the service makes them on the alignment thread
 * (`align-thread.ts`), which keeps its main thread free.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TimedWord } from '../../../../src/contract/media.js';
import { planChunks, tokenBreaks, type BreakStrength, type ChunkPlan } from './align-chunks.js';
import { espeakPronunciation } from './align-g2p.js';
import { findPauses, speechSpans } from './align-pauses.js';
import { alignTokens } from './align-tokens.js';
import { AsrEngineError, AsrInputError } from './errors.js';
import { ASR_SAMPLE_RATE_HZ, pcmToFloat32 } from './pcm.js';

export { alignTokens } from './align-tokens.js';

type SoundSwallower = Awaited<ReturnType<typeof import('soundswallower').default>>;
type Decoder = InstanceType<SoundSwallower['Decoder']>;

/** Debian's larger dictionary, consulted for words soundswallower lacks. */
const EXTRA_DICT_PATH = '/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict';

/**
 * Decoder settings tried in turn on each chunk, with the silence (s) kept around its speech.
 * Optional silences first (exact on real speech with pauses), then none (what espeak-ng speech
 * needs; the chunk is cut tight so no pause is left to swallow), then wider beams.
 */
const ATTEMPTS = [
  { fsgusefiller: true, beam: 1e-48, pbeam: 1e-48, wbeam: 7e-29, padSec: 0.15 },
  { fsgusefiller: false, beam: 1e-48, pbeam: 1e-48, wbeam: 7e-29, padSec: 0.03 },
  { fsgusefiller: false, beam: 1e-80, pbeam: 1e-80, wbeam: 1e-60, padSec: 0.03 },
] as const;
/** Chunks (before, after) merged with a failing one, in turn; the last try is the whole text. */
const WIDEN = [
  [0, 0],
  [0, 1],
  [1, 1],
  [1, 3],
  [Infinity, Infinity],
] as const;
/** A failed chunk is re-planned at every pause (high skip cost) at most this deep. */
const MAX_SPLIT_DEPTH = 2;
/** Re-planning that must use every pause: leaving one inside a chunk costs this per second. */
const FORCE_SPLIT_SKIP_COST = 20;

/** One word/phone of soundswallower's alignment: text, begin and duration (s), probability. */
interface AlignSegment {
  t: string;
  b: number;
  d: number;
  p: number;
}

interface Aligned {
  start: number;
  end: number;
  confidence: number;
}

/** What one alignment call works on: the in-vocabulary tokens and the audio's speech spans. */
interface Job {
  decoder: Decoder;
  pcm: Int16Array;
  words: string[];
  weights: number[];
  breaks: BreakStrength[];
  spans: Array<{ start: number; end: number }>;
  /** Index in ATTEMPTS that aligned the last chunk: the same voice likely needs it again. */
  lastGood: number;
  /** Chunks already found unalignable (widening and re-planning revisit them). */
  failed: Set<string>;
}

let decoderPromise: Promise<Decoder> | undefined;
let queue: Promise<unknown> = Promise.resolve();
let extraDict: Map<string, string> | undefined;
/** Words the decoder learnt from espeak-ng (its dictionary then knows them like any other). */
const spelledWords = new Set<string>();

/**
 * Aligns `text` to `pcm` (16 kHz mono s16) and returns one TimedWord per token of the text.
 * @throws AsrInputError for empty text or audio; AsrEngineError when alignment fails.
 * @example const words = await alignText(pcm, 'go forward ten meters');
 */
export function alignText(pcm: Int16Array, text: string): Promise<TimedWord[]> {
  const tokens = alignTokens(text);
  if (tokens.length === 0)
    return Promise.reject(new AsrInputError('invalid_text', 'alignment text has no words'));
  if (pcm.length === 0) return Promise.reject(new AsrInputError('invalid_audio', 'audio is empty'));
  const run = queue.then(async () => alignWithDecoder(await getDecoder(), pcm, text, tokens));
  queue = run.catch(() => {});
  return run;
}

/**
 * Runs `fn` with the shared decoder, after every alignment already queued (the WebAssembly
 * decoder is one synchronous object).
 */
export function withDecoder<T>(fn: (decoder: Decoder) => Promise<T> | T): Promise<T> {
  const run = queue.then(async () => fn(await getDecoder()));
  queue = run.catch(() => {});
  return run;
}

export type { Decoder as AlignDecoder };

async function getDecoder(): Promise<Decoder> {
  decoderPromise ??= (async () => {
    const { default: createModule } = await import('soundswallower');
    const entry = fileURLToPath(import.meta.resolve('soundswallower'));
    const ss = await createModule({ modelBase: `${join(dirname(entry), 'model')}/` } as never);
    const decoder = new ss.Decoder({ samprate: ASR_SAMPLE_RATE_HZ, loglevel: 'FATAL' });
    await decoder.initialize();
    return decoder;
  })();
  decoderPromise.catch(() => {
    decoderPromise = undefined;
  });
  return decoderPromise;
}

async function alignWithDecoder(
  decoder: Decoder,
  pcm: Int16Array,
  text: string,
  tokens: string[],
): Promise<TimedWord[]> {
  const found: Array<{ pron: string; spelled: boolean } | undefined> = [];
  for (const t of tokens) found.push(await ensureWord(decoder, t));
  const prons = found.map((f) => f?.pron);
  try {
    return alignKnown(decoder, pcm, text, tokens, prons);
  } catch (err) {
    // espeak-ng's guess may be wrong, or the word not spoken at all: leave spelled words out.
    if (!found.some((f) => f?.spelled)) throw err;
    return alignKnown(
      decoder,
      pcm,
      text,
      tokens,
      found.map((f) => (f?.spelled ? undefined : f?.pron)),
    );
  }
}

function alignKnown(
  decoder: Decoder,
  pcm: Int16Array,
  text: string,
  tokens: string[],
  prons: Array<string | undefined>,
): TimedWord[] {
  const known = prons.map(Boolean);
  const durationSec = pcm.length / ASR_SAMPLE_RATE_HZ;
  const idx = tokens.flatMap((_, i) => (known[i] ? [i] : []));
  if (idx.length === 0) return interpolate(tokens, known, [], durationSec);
  // A left-out word's break (its punctuation) moves to the known word before it.
  const allBreaks = tokenBreaks(text);
  const breaks = idx.map(
    (i, k) => Math.max(...allBreaks.slice(i, idx[k + 1] ?? tokens.length).concat(0)) as BreakStrength,
  );
  const job: Job = {
    decoder,
    pcm,
    words: idx.map((i) => tokens[i]),
    weights: idx.map((i) => prons[i]!.split(' ').length),
    breaks,
    spans: speechSpans(findPauses(pcm), durationSec),
    lastGood: 0,
    failed: new Set(),
  };
  if (job.spans.length === 0) job.spans = [{ start: 0, end: durationSec }];
  const plan = planChunks(job.weights, job.breaks, job.spans);
  // results[g] holds the words of the group of chunks starting at g; owner[c] is c's group.
  const results: Aligned[][] = [];
  const owner: number[] = [];
  for (let c = 0; c < plan.length;) {
    let error: unknown;
    // Widen a failing chunk: its boundaries may sit in the wrong pauses (speaking rate varies).
    for (const [back, ahead] of WIDEN) {
      const first = owner[Math.max(0, c - back)] ?? c;
      const last = Math.min(plan.length - 1, c + ahead);
      if (error && first === c && last === c) continue;
      try {
        const merged = {
          from: plan[first].from,
          to: plan[last].to,
          start: plan[first].start,
          end: plan[last].end,
        };
        const words = alignRange(job, merged, 0);
        results.length = first;
        results[first] = words;
        for (let i = first; i <= last; i++) owner[i] = first;
        c = last + 1;
        error = undefined;
        break;
      } catch (err) {
        error ??= err;
      }
    }
    if (error) throw error;
  }
  const aligned = results.flat();
  return interpolate(tokens, known, aligned, durationSec);
}

/** Aligns one chunk, re-planning it at every pause inside when it fails as a whole. */
function alignRange(job: Job, chunk: ChunkPlan, depth: number): Aligned[] {
  const result = alignChunk(job, chunk);
  if (result) return result;
  const inner = job.spans.filter((s) => s.start >= chunk.start && s.end <= chunk.end);
  if (depth < MAX_SPLIT_DEPTH && inner.length > 1 && chunk.to - chunk.from > 1) {
    const sub = planChunks(
      job.weights.slice(chunk.from, chunk.to),
      job.breaks.slice(chunk.from, chunk.to),
      inner,
      {
        skipCostPerSec: FORCE_SPLIT_SKIP_COST,
      },
    );
    if (sub.length > 1) {
      return sub.flatMap((s) =>
        alignRange(job, { ...s, from: s.from + chunk.from, to: s.to + chunk.from }, depth + 1),
      );
    }
  }
  throw new AsrEngineError(
    `forced alignment failed: no alignment of "${job.words.slice(chunk.from, chunk.to).join(' ')}" ` +
      `to ${chunk.start.toFixed(2)}-${chunk.end.toFixed(2)} s (does the text match the audio?)`,
  );
}

/** Tries each decoder setting on one chunk; undefined when none aligns every word. */
function alignChunk(job: Job, chunk: ChunkPlan): Aligned[] | undefined {
  const key = `${chunk.from}:${chunk.to}:${chunk.start}:${chunk.end}`;
  if (job.failed.has(key)) return undefined;
  const words = job.words.slice(chunk.from, chunk.to);
  const durationSec = job.pcm.length / ASR_SAMPLE_RATE_HZ;
  // The chunk may reach into the pauses around it, never into a neighbouring span.
  const prevEnd = job.spans.filter((s) => s.end <= chunk.start).at(-1)?.end ?? 0;
  const nextStart = job.spans.find((s) => s.start >= chunk.end)?.start ?? durationSec;
  const order = [job.lastGood, ...ATTEMPTS.keys()].filter((a, i, all) => all.indexOf(a) === i);
  for (const a of order) {
    const { padSec, ...config } = ATTEMPTS[a];
    const lo = Math.max(prevEnd, chunk.start - padSec);
    const hi = Math.min(nextStart, chunk.end + padSec);
    const out = decodeAligned(
      job.decoder,
      job.pcm.subarray(Math.floor(lo * ASR_SAMPLE_RATE_HZ), Math.ceil(hi * ASR_SAMPLE_RATE_HZ)),
      words,
      config,
    );
    if (!out) continue;
    job.lastGood = a;
    return out.map((w) => ({ ...w, start: w.start + lo, end: w.end + lo }));
  }
  job.failed.add(key);
  return undefined;
}

function decodeAligned(
  decoder: Decoder,
  pcm: Int16Array,
  words: string[],
  config: Record<string, number | boolean>,
): Aligned[] | undefined {
  let segments: AlignSegment[];
  try {
    for (const [k, v] of Object.entries(config)) decoder.set_config(k, v as number);
    decoder.set_align_text(words.join(' '));
    decoder.start();
    decoder.process_audio(pcmToFloat32(pcm), false, true);
    decoder.stop();
    segments = (decoder.get_alignment().w ?? []) as AlignSegment[];
  } catch (err) {
    throw new AsrEngineError(`forced alignment failed: ${(err as Error).message}`, { cause: err });
  }
  const aligned = segments.filter((s) => !/^(<s>|<\/s>|<sil>|\[.*\]|\+\+.*\+\+)$/.test(s.t));
  if (aligned.length !== words.length) return undefined;
  return aligned.map((s) => ({ start: s.b, end: s.b + s.d, confidence: s.p }));
}

/**
 * The pronunciation of `word`, adding it from cmudict or espeak-ng when the decoder lacks it;
 * `spelled` marks espeak-ng's guesses.
 */
export async function ensureWord(
  decoder: Decoder,
  word: string,
): Promise<{ pron: string; spelled: boolean } | undefined> {
  const known = decoder.lookup_word(word);
  if (known) return { pron: known, spelled: spelledWords.has(word) };
  const listed = loadExtraDict().get(word);
  const pron = listed ?? (await espeakPronunciation(word));
  if (!pron) return undefined;
  try {
    decoder.add_words([word, pron]);
  } catch {
    return undefined; // a phone the model lacks
  }
  if (!listed) spelledWords.add(word);
  return { pron, spelled: !listed };
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
  for (let i = 0; i < tokens.length;) {
    if (known[i]) {
      const w = aligned[a++];
      out.push({
        word: tokens[i],
        start: r3(w.start),
        end: r3(w.end),
        confidence: r3(Math.min(1, Math.max(0, w.confidence))),
      });
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
