/**
 * @module containers/media/engines/asr/silence-pack
 * Long silences between stretches of speech shortened before decoding, and the words' times put
 * back. Why: Whisper reads a 30 s window per encoder pass whatever its length, and a pause long
 * enough to split the decode plan makes each sentence of sparse speech (a talk with 2–4 s between
 * sentences) its own window: nine sentences, nine passes. With the pauses shortened to a natural
 * one they share windows, and every word is then mapped back to the time it was said. Decoding
 * the long pauses whole is no answer: Whisper stops writing at a long silence.
 */
import type { AsrOutput, TimedWord, TimeSegment } from '../../../../src/contract/media.js';
import { ASR_SAMPLE_RATE_HZ } from './pcm.js';

/** A stretch of the original audio kept whole: samples [from, to) sit at `at` in the packed audio. */
export interface KeptSpan {
  from: number;
  to: number;
  at: number;
}

/** Which silences `packSpans` cuts, and to what. */
export interface PackOptions {
  /** A silence longer than this separates two runs of speech, seconds. */
  longerThanSec: number;
  /** What is left of a silence cut, seconds. */
  keptSec: number;
  /** A silence is cut only between runs shorter than this, seconds. */
  runsShorterThanSec: number;
}

/** The packed audio, its speech, and the spans that map its times back. */
export interface PackedAudio {
  pcm: Int16Array;
  speech: TimeSegment[];
  spans: KeptSpan[];
}

/**
 * Pure: the spans to keep when the silences between runs of speech are cut down to `keptSec`
 * (half after the run before, half before the run after). A run is speech between silences longer
 * than `longerThanSec`; a silence is cut only when the runs on both sides are shorter than
 * `runsShorterThanSec`, so a run long enough to be a stretch in another language keeps its own
 * decode (and its language, `language.ts`). Null when there is nothing to cut. Lead and tail
 * silence stay whole.
 * @example packSpans([{ start: 1, end: 2 }, { start: 6, end: 7 }], 8 * 16000, { longerThanSec: 1.7, keptSec: 1, runsShorterThanSec: 10 })
 * // [{ from: 0, to: 40000, at: 0 }, { from: 88000, to: 128000, at: 40000 }]
 */
export function packSpans(
  speech: readonly TimeSegment[],
  samples: number,
  { longerThanSec, keptSec, runsShorterThanSec }: PackOptions,
): KeptSpan[] | null {
  const rate = ASR_SAMPLE_RATE_HZ;
  const half = Math.round((keptSec / 2) * rate);
  const runs: Array<{ start: number; end: number }> = [];
  for (const s of [...speech].sort((a, b) => a.start - b.start)) {
    const start = Math.floor(s.start * rate);
    const end = Math.ceil(s.end * rate);
    const last = runs.at(-1);
    if (last && start - last.end <= Math.max(longerThanSec * rate, 2 * half))
      last.end = Math.max(last.end, end);
    else runs.push({ start, end });
  }
  const short = (r: { start: number; end: number }) => r.end - r.start < runsShorterThanSec * rate;
  const spans: KeptSpan[] = [];
  let from = 0;
  let at = 0;
  for (let i = 1; i < runs.length; i++) {
    if (!short(runs[i - 1]) || !short(runs[i])) continue;
    const to = Math.min(samples, runs[i - 1].end + half);
    spans.push({ from, to, at });
    at += to - from;
    from = Math.max(to, runs[i].start - half);
  }
  if (spans.length === 0) return null;
  if (from < samples) spans.push({ from, to: samples, at });
  return spans;
}

/** Pure: the span of `spans` whose packed stretch holds packed sample `t` (the nearest at the ends). */
function spanAt(spans: readonly KeptSpan[], t: number): KeptSpan {
  let lo = 0;
  let hi = spans.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (spans[mid].at <= t) lo = mid;
    else hi = mid - 1;
  }
  return spans[lo];
}

/**
 * Pure: the original time of packed time `sec`, read inside `span` (clamped to it).
 * @example originalTime({ from: 88000, to: 128000, at: 40000 }, 3) // 6.5
 */
export function originalTime(span: KeptSpan, sec: number): number {
  const t = Math.min(Math.max(sec * ASR_SAMPLE_RATE_HZ, span.at), span.at + (span.to - span.from));
  return (span.from + (t - span.at)) / ASR_SAMPLE_RATE_HZ;
}

/** Pure: the packed time of original time `sec` (inside a kept span; a cut silence maps to its seam). */
function packedTime(spans: readonly KeptSpan[], sec: number): number {
  const t = sec * ASR_SAMPLE_RATE_HZ;
  let last = spans[0];
  for (const s of spans) {
    if (s.from > t) break;
    last = s;
  }
  return (last.at + Math.min(Math.max(t - last.from, 0), last.to - last.from)) / ASR_SAMPLE_RATE_HZ;
}

/**
 * The audio with its long silences shortened (`packSpans`), and its speech segments moved with
 * it; null when there is nothing to shorten.
 */
export function packSilences(
  pcm: Int16Array,
  speech: readonly TimeSegment[] | undefined,
  options: PackOptions,
): PackedAudio | null {
  const spans = speech && packSpans(speech, pcm.length, options);
  if (!spans) return null;
  const last = spans.at(-1)!;
  const packed = new Int16Array(last.at + (last.to - last.from));
  for (const s of spans) packed.set(pcm.subarray(s.from, s.to), s.at);
  return {
    pcm: packed,
    speech: speech.map((s) => ({ start: packedTime(spans, s.start), end: packedTime(spans, s.end) })),
    spans,
  };
}

/**
 * Pure: a word of the packed audio at its original time. Both ends are read in the span that
 * holds the word's middle, so a word the decoder stretched over a seam does not swallow the
 * silence cut there.
 */
export function unpackWord(spans: readonly KeptSpan[], word: TimedWord): TimedWord {
  const span = spanAt(spans, ((word.start + word.end) / 2) * ASR_SAMPLE_RATE_HZ);
  return { ...word, start: originalTime(span, word.start), end: originalTime(span, word.end) };
}

/**
 * Pure: Whisper's output on packed audio, its words put back on the original audio's clock (its
 * only times: `silences` are pocketsphinx's, which does not pack).
 */
export function unpackOutput(spans: readonly KeptSpan[], out: AsrOutput): AsrOutput {
  return { ...out, words: out.words.map((w) => unpackWord(spans, w)) };
}
