/**
 * @module containers/media/engines/asr/align
 * Forced alignment of known text to speech with SoundSwallower (pocketsphinx's aligner, with its
 * own en-us acoustic model and 134k-word CMU dictionary; `align-decoder.ts`). Used for
 * synthesized speech whose text is known, for a transcript whose filler alignment failed, and by
 * the benchmarks to check word timings.
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
 * neighbours, shared by letter count, with confidence 0. The decoder runs in its own process
 * (`align-decoder.ts`), so the service's main thread stays free while it searches.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { TimedWord } from '../../../../src/contract/media.js';
import { planChunks, tokenBreaks, type BreakStrength, type ChunkPlan } from './align-chunks.js';
import { alignDecoder, SEARCH_WITH_SILENCES, type SearchSettings } from './align-decoder.js';
import { espeakPronunciation } from './align-g2p.js';
import { findPauses, speechSpans } from './align-pauses.js';
import { alignTokens } from './align-tokens.js';
import { AsrAbortedError, AsrEngineError, AsrInputError } from './errors.js';
import { ASR_SAMPLE_RATE_HZ } from './pcm.js';

export { alignTokens } from './align-tokens.js';

/** Debian's larger dictionary, consulted for words soundswallower lacks. */
const EXTRA_DICT_PATH = '/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict';

/**
 * Decoder settings tried in turn on each chunk, with the silence (s) kept around its speech.
 * Optional silences first (exact on real speech with pauses), then none (what espeak-ng speech
 * needs; the chunk is cut tight so no pause is left to swallow), then wider beams.
 */
const ATTEMPTS: ReadonlyArray<SearchSettings & { padSec: number }> = [
  { ...SEARCH_WITH_SILENCES, padSec: 0.15 },
  { fsgusefiller: false, beam: 1e-48, pbeam: 1e-48, wbeam: 7e-29, padSec: 0.03 },
  { fsgusefiller: false, beam: 1e-80, pbeam: 1e-80, wbeam: 1e-60, padSec: 0.03 },
];
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

interface Aligned {
  start: number;
  end: number;
  confidence: number;
}

/** What one alignment call works on: the in-vocabulary tokens and the audio's speech spans. */
interface Job {
  pcm: Int16Array;
  signal: AbortSignal | undefined;
  words: string[];
  weights: number[];
  breaks: BreakStrength[];
  spans: Array<{ start: number; end: number }>;
  /** Index in ATTEMPTS that aligned the last chunk: the same voice likely needs it again. */
  lastGood: number;
  /** Chunks already found unalignable (widening and re-planning revisit them). */
  failed: Set<string>;
}

let extraDict: Map<string, string> | undefined;
/** Words the decoder learnt from espeak-ng (its dictionary then knows them like any other). */
const spelledWords = new Set<string>();

/**
 * Aligns `text` to `pcm` (16 kHz mono s16) and returns one TimedWord per token of the text.
 * @throws AsrInputError for empty text or audio; AsrEngineError when alignment fails;
 *   AsrAbortedError when `signal` fires.
 * @example const words = await alignText(pcm, 'go forward ten meters');
 */
export async function alignText(pcm: Int16Array, text: string, signal?: AbortSignal): Promise<TimedWord[]> {
  const tokens = alignTokens(text);
  if (tokens.length === 0) throw new AsrInputError('invalid_text', 'alignment text has no words');
  if (pcm.length === 0) throw new AsrInputError('invalid_audio', 'audio is empty');
  const found = await ensureWords(tokens, signal);
  try {
    return await alignKnown(
      pcm,
      text,
      tokens,
      found.map((f) => f?.pron),
      signal,
    );
  } catch (err) {
    // espeak-ng's guess may be wrong, or the word not spoken at all: leave spelled words out.
    if (!found.some((f) => f?.spelled) || signal?.aborted) throw err;
    return alignKnown(
      pcm,
      text,
      tokens,
      found.map((f) => (f?.spelled ? undefined : f?.pron)),
      signal,
    );
  }
}

async function alignKnown(
  pcm: Int16Array,
  text: string,
  tokens: string[],
  prons: Array<string | undefined>,
  signal: AbortSignal | undefined,
): Promise<TimedWord[]> {
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
    pcm,
    signal,
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
        const words = await alignRange(job, merged, 0);
        results.length = first;
        results[first] = words;
        for (let i = first; i <= last; i++) owner[i] = first;
        c = last + 1;
        error = undefined;
        break;
      } catch (err) {
        if (err instanceof AsrAbortedError) throw err;
        error ??= err;
      }
    }
    if (error) throw error;
  }
  const aligned = results.flat();
  return interpolate(tokens, known, aligned, durationSec);
}

/** Aligns one chunk, re-planning it at every pause inside when it fails as a whole. */
async function alignRange(job: Job, chunk: ChunkPlan, depth: number): Promise<Aligned[]> {
  const result = await alignChunk(job, chunk);
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
      const parts: Aligned[] = [];
      for (const s of sub)
        parts.push(
          ...(await alignRange(job, { ...s, from: s.from + chunk.from, to: s.to + chunk.from }, depth + 1)),
        );
      return parts;
    }
  }
  throw new AsrEngineError(
    `forced alignment failed: no alignment of "${job.words.slice(chunk.from, chunk.to).join(' ')}" ` +
      `to ${chunk.start.toFixed(2)}-${chunk.end.toFixed(2)} s (does the text match the audio?)`,
  );
}

/** Tries each decoder setting on one chunk; undefined when none aligns every word. */
async function alignChunk(job: Job, chunk: ChunkPlan): Promise<Aligned[] | undefined> {
  const key = `${chunk.from}:${chunk.to}:${chunk.start}:${chunk.end}`;
  if (job.failed.has(key)) return undefined;
  const words = job.words.slice(chunk.from, chunk.to);
  const durationSec = job.pcm.length / ASR_SAMPLE_RATE_HZ;
  // The chunk may reach into the pauses around it, never into a neighbouring span.
  const prevEnd = job.spans.filter((s) => s.end <= chunk.start).at(-1)?.end ?? 0;
  const nextStart = job.spans.find((s) => s.start >= chunk.end)?.start ?? durationSec;
  const order = [job.lastGood, ...ATTEMPTS.keys()].filter((a, i, all) => all.indexOf(a) === i);
  for (const a of order) {
    const { padSec, ...settings } = ATTEMPTS[a];
    const lo = Math.max(prevEnd, chunk.start - padSec);
    const hi = Math.min(nextStart, chunk.end + padSec);
    const out = await decodeAligned(
      job.pcm.subarray(Math.floor(lo * ASR_SAMPLE_RATE_HZ), Math.ceil(hi * ASR_SAMPLE_RATE_HZ)),
      words,
      settings,
      job.signal,
    );
    if (!out) continue;
    job.lastGood = a;
    return out.map((w) => ({ ...w, start: w.start + lo, end: w.end + lo }));
  }
  job.failed.add(key);
  return undefined;
}

async function decodeAligned(
  pcm: Int16Array,
  words: string[],
  settings: SearchSettings,
  signal: AbortSignal | undefined,
): Promise<Aligned[] | undefined> {
  const segments = await alignDecoder.align(pcm, { text: words.join(' ') }, settings, signal);
  const aligned = segments.filter((s) => !/^(<s>|<\/s>|<sil>|\[.*\]|\+\+.*\+\+)$/.test(s.t));
  if (aligned.length !== words.length) return undefined;
  return aligned.map((s) => ({ start: s.b, end: s.b + s.d, confidence: s.p }));
}

/**
 * Starts the decoder's process and reads Debian's dictionary now (≈ 0.1 s of this thread), so
 * the first alignment waits for neither.
 * @throws AsrEngineError when the decoder cannot start.
 */
export async function preloadAligner(): Promise<void> {
  loadExtraDict();
  await alignDecoder.preload();
}

/** A token's pronunciation in the decoder's dictionary; `spelled` marks espeak-ng's guesses. */
export type KnownWord = { pron: string; spelled: boolean } | undefined;

/**
 * The pronunciation of each of `tokens`, adding a word the decoder lacks from cmudict or
 * espeak-ng; undefined for a token neither knows (or whose phones the model lacks).
 */
export async function ensureWords(tokens: readonly string[], signal?: AbortSignal): Promise<KnownWord[]> {
  const unique = [...new Set(tokens)];
  const prons = await alignDecoder.lookupWords(unique, signal);
  const known = new Map<string, KnownWord>();
  for (const [i, word] of unique.entries()) {
    const pron = prons[i];
    known.set(word, pron ? { pron, spelled: spelledWords.has(word) } : await addWord(word, signal));
  }
  return tokens.map((t) => known.get(t));
}

async function addWord(word: string, signal: AbortSignal | undefined): Promise<KnownWord> {
  const listed = loadExtraDict().get(word);
  const pron = listed ?? (await espeakPronunciation(word));
  if (!pron || !(await alignDecoder.addWord(word, pron, signal))) return undefined;
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
