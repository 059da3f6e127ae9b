/**
 * @module containers/media/engines/asr/align-chunks
 * Pure planning of phrase-by-phrase alignment: the text's break strengths (sentence, clause,
 * none) and the audio's speech spans (between pauses) are matched by dynamic programming, so
 * each chunk of words gets the stretch of audio whose length fits its expected duration and
 * chunks end, preferably, at punctuation that falls in a pause. Short chunks are what the
 * decoder aligns reliably; one long grammar often finds no path (see align.ts).
 */
import type { TimeSegment } from '../../../../src/contract/media.js';
import { alignTokens } from './align-tokens.js';

/** Strength of the break after a token: none, clause (comma, dash), sentence (. ! ? ; :). */
export type BreakStrength = 0 | 1 | 2;

/** One planned chunk: tokens `[from, to)` spoken within speech `[start, end]` (s). */
export interface ChunkPlan {
  from: number;
  to: number;
  start: number;
  end: number;
}

export interface PlanOptions {
  /** Most tokens in one chunk. Default 40. */
  maxWords?: number;
  /** Most speech spans in one chunk. Default 12. */
  maxSpans?: number;
  /** Cost of leaving a pause inside a chunk, per second of pause. Default 4: a pause at a comma splits. */
  skipCostPerSec?: number;
  /** Chunks longer than this (s) are penalised: long grammars are what fail. Default 12. */
  maxChunkSec?: number;
}

/** Cost of ending a chunk after a token with no break / a clause break / a sentence break. */
const BREAK_COST = [1, 0.3, 0] as const;
/** Tokens are only planned within this distance (s) of their proportional place in the audio. */
const BAND_SEC = 10;

/**
 * Pure: the break strength after each token of `alignTokens(text)` (a hyphen inside a word is
 * no break; a bare "—" between words is a clause break).
 * @example tokenBreaks('Hi, well-known world. Ok') // [1, 0, 0, 2, 0]
 */
export function tokenBreaks(text: string): BreakStrength[] {
  const out: BreakStrength[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const n = alignTokens(word).length;
    const strength = wordBreak(word);
    if (n === 0) {
      if (out.length)
        out[out.length - 1] = Math.max(out[out.length - 1], Math.max(strength, 1)) as BreakStrength;
      continue;
    }
    for (let i = 0; i < n - 1; i++) out.push(0);
    out.push(strength);
  }
  return out;
}

function wordBreak(word: string): BreakStrength {
  if (/[.!?;:…]["'”’)\]]*$/.test(word)) return 2;
  if (/[,—–-]["'”’)\]]*$/.test(word) || /^[—–-]+$/.test(word)) return 1;
  return 0;
}

/**
 * Pure: splits tokens (with expected durations `weights`, any unit, and `breaks`) over the
 * speech `spans` (in time order) into chunks. Every token and every span belongs to exactly
 * one chunk; chunks are in order. Cost per chunk: squared misfit of its speech time to its
 * expected time (at the clip's average rate), plus the cost of its end break, plus the
 * pauses left inside it.
 * @example planChunks([1, 1, 1, 1], [0, 2, 0, 2], [{ start: 0, end: 1 }, { start: 1.4, end: 2.4 }])
 *   // [{ from: 0, to: 2, start: 0, end: 1 }, { from: 2, to: 4, start: 1.4, end: 2.4 }]
 */
export function planChunks(
  weights: number[],
  breaks: BreakStrength[],
  spans: TimeSegment[],
  options: PlanOptions = {},
): ChunkPlan[] {
  const { maxWords = 40, maxSpans = 12, skipCostPerSec = 4, maxChunkSec = 12 } = options;
  const n = weights.length;
  const m = spans.length;
  if (n === 0) return [];
  if (m <= 1) return [{ from: 0, to: n, start: spans[0]?.start ?? 0, end: spans.at(-1)?.end ?? 0 }];
  const cumW = prefix(weights);
  const cumS = prefix(spans.map((s) => s.end - s.start));
  const cumGap = prefix(spans.map((s, i) => (i === 0 ? 0 : s.start - spans[i - 1].end)));
  const rate = cumS[m] / cumW[n];
  const cost = Array.from({ length: m + 1 }, () => new Float64Array(n + 1).fill(Infinity));
  const back = Array.from({ length: m + 1 }, () => new Int32Array(2 * (n + 1)).fill(-1));
  cost[0][0] = 0;
  for (let p = 0; p < m; p++) {
    for (let k = 0; k < n; k++) {
      const base = cost[p][k];
      if (base === Infinity || Math.abs(cumW[k] * rate - cumS[p]) > BAND_SEC) continue;
      for (let q = p + 1; q <= Math.min(m, p + maxSpans); q++) {
        const actual = cumS[q] - cumS[p];
        const skipped = (cumGap[q] - cumGap[p + 1]) * skipCostPerSec;
        const tooLong = Math.max(0, spans[q - 1].end - spans[p].start - maxChunkSec) ** 2;
        // The last chunk must take every remaining span; others must leave one per chunk.
        for (let l = k + 1; l <= Math.min(n, k + maxWords); l++) {
          if ((q === m) !== (l === n)) continue;
          const expected = (cumW[l] - cumW[k]) * rate;
          const misfit = ((actual - expected) / (0.25 + 0.2 * expected)) ** 2;
          const c = base + misfit + skipped + tooLong + (l < n ? BREAK_COST[breaks[l - 1] ?? 0] : 0);
          if (c < cost[q][l]) {
            cost[q][l] = c;
            back[q][2 * l] = p;
            back[q][2 * l + 1] = k;
          }
        }
      }
    }
  }
  if (cost[m][n] === Infinity) return [{ from: 0, to: n, start: spans[0].start, end: spans[m - 1].end }];
  const out: ChunkPlan[] = [];
  for (let q = m, l = n; q > 0;) {
    const p = back[q][2 * l];
    const k = back[q][2 * l + 1];
    out.unshift({ from: k, to: l, start: spans[p].start, end: spans[q - 1].end });
    q = p;
    l = k;
  }
  return out;
}

function prefix(xs: number[]): Float64Array {
  const out = new Float64Array(xs.length + 1);
  xs.forEach((x, i) => (out[i + 1] = out[i] + x));
  return out;
}
