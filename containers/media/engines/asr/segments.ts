/**
 * @module containers/media/engines/asr/segments
 * Pure planning of what the recogniser decodes: VAD speech segments are padded, merged when
 * close, clamped to the audio and split when too long; then shared out between workers.
 * Decoding only speech (plus a little context) is faster than decoding the whole clip and
 * gives the decoder clean utterance boundaries.
 */
import type { TimeSegment } from '../../../../src/contract/media.js';
import { AsrInputError } from './errors.js';
import { ASR_SAMPLE_RATE_HZ } from './pcm.js';

export interface DecodePlanOptions {
  /** Context added before and after each speech segment, seconds. Default 0.3. */
  paddingSec?: number;
  /** Context added before each speech segment instead, seconds. Default `paddingSec`. */
  leadSec?: number;
  /** Segments closer than this after padding are decoded as one utterance, seconds. Default 0.3. */
  mergeGapSec?: number;
  /**
   * Longer utterances are split at the quietest point near the limit, seconds. Default 10: short
   * enough to share continuous speech evenly between the decoders (with 20, 60 s of speech became
   * 3 utterances, 40 s on one core and 20 s on the other).
   */
  maxUtteranceSec?: number;
  /** Utterances shorter than this are dropped (nothing to recognise), seconds. Default 0.1. */
  minUtteranceSec?: number;
}

/** Window (before the length limit) searched for a quiet split point, seconds. */
const SPLIT_SEARCH_WINDOW_SEC = 5;
/** Energy frame used to find quiet split points, seconds. */
const ENERGY_FRAME_SEC = 0.02;

/**
 * Checks a caller-supplied segment list (e.g. the `x-speech-segments` header).
 * @throws AsrInputError naming the offending index.
 */
export function validateSegments(value: unknown): TimeSegment[] {
  if (!Array.isArray(value))
    throw new AsrInputError('invalid_segments', 'speech segments must be a JSON array of {start,end}');
  return value.map((s, i) => {
    const start = (s as TimeSegment | null)?.start;
    const end = (s as TimeSegment | null)?.end;
    if (
      typeof start !== 'number' ||
      typeof end !== 'number' ||
      !Number.isFinite(start) ||
      !Number.isFinite(end)
    ) {
      throw new AsrInputError(
        'invalid_segments',
        `speech segment [${i}] needs numeric start and end in seconds`,
      );
    }
    if (start < 0 || end <= start) {
      throw new AsrInputError(
        'invalid_segments',
        `speech segment [${i}] must satisfy 0 <= start < end (got ${start}..${end})`,
      );
    }
    return { start, end };
  });
}

/**
 * Turns VAD segments (or none: the whole clip) into the utterances to decode.
 * @example planUtterances(pcm, [{ start: 1, end: 2 }, { start: 2.2, end: 3 }]) // [{ start: 0.7, end: 3.3 }]
 */
export function planUtterances(
  pcm: Int16Array,
  speech: TimeSegment[] | undefined,
  options: DecodePlanOptions = {},
): TimeSegment[] {
  const {
    paddingSec = 0.3,
    leadSec = paddingSec,
    mergeGapSec = 0.3,
    maxUtteranceSec = 10,
    minUtteranceSec = 0.1,
  } = options;
  const durationSec = pcm.length / ASR_SAMPLE_RATE_HZ;
  const source = speech ?? [{ start: 0, end: durationSec }];
  const padded = source
    .map((s) => ({
      start: Math.max(0, s.start - leadSec),
      end: Math.min(durationSec, s.end + paddingSec),
    }))
    .filter((s) => s.end > s.start)
    .sort((a, b) => a.start - b.start);
  const merged: TimeSegment[] = [];
  for (const s of padded) {
    const last = merged.at(-1);
    if (last && s.start - last.end <= mergeGapSec) last.end = Math.max(last.end, s.end);
    else merged.push({ ...s });
  }
  return merged
    .flatMap((s) => splitLong(pcm, s, maxUtteranceSec))
    .filter((s) => s.end - s.start >= minUtteranceSec);
}

/**
 * Pure: seconds of `speech` inside `span` (the whole span when the speech is not known).
 * @example speechSecondsIn({ start: 0, end: 10 }, [{ start: 1, end: 3 }, { start: 9, end: 12 }]) // 3
 */
export function speechSecondsIn(span: TimeSegment, speech: readonly TimeSegment[] | undefined): number {
  return (speech ?? [span]).reduce(
    (sum, s) => sum + Math.max(0, Math.min(s.end, span.end) - Math.max(s.start, span.start)),
    0,
  );
}

/**
 * Pure: seconds of `speech` inside `span` (the whole span when the speech is not known) that lie
 * farther than `marginSec` from every word's [start, end]: speech a decode wrote nothing for.
 * @example uncoveredSpeechSec({ start: 0, end: 10 }, [{ start: 0, end: 10 }], [{ start: 4, end: 10 }], 0.5) // 3.5
 */
export function uncoveredSpeechSec(
  span: TimeSegment,
  speech: readonly TimeSegment[] | undefined,
  words: ReadonlyArray<{ start: number; end: number }>,
  marginSec: number,
): number {
  const covered: TimeSegment[] = [];
  for (const w of [...words].sort((a, b) => a.start - b.start)) {
    const start = w.start - marginSec;
    const end = w.end + marginSec;
    const last = covered.at(-1);
    if (last && start <= last.end) last.end = Math.max(last.end, end);
    else covered.push({ start, end });
  }
  return (speech ?? [span]).reduce((sum, s) => {
    const start = Math.max(s.start, span.start);
    const end = Math.min(s.end, span.end);
    if (end <= start) return sum;
    const hidden = covered.reduce(
      (h, c) => h + Math.max(0, Math.min(c.end, end) - Math.max(c.start, start)),
      0,
    );
    return sum + (end - start - hidden);
  }, 0);
}

/** Splits a segment longer than `maxSec` at the quietest frame in the window before each limit. */
function splitLong(pcm: Int16Array, seg: TimeSegment, maxSec: number): TimeSegment[] {
  const out: TimeSegment[] = [];
  let start = seg.start;
  while (seg.end - start > maxSec) {
    const cut = quietestPoint(
      pcm,
      Math.max(start + maxSec - SPLIT_SEARCH_WINDOW_SEC, start + 1),
      start + maxSec,
    );
    out.push({ start, end: cut });
    start = cut;
  }
  out.push({ start, end: seg.end });
  return out;
}

/** Time (s) of the centre of the lowest-energy frame in [fromSec, toSec]. */
export function quietestPoint(pcm: Int16Array, fromSec: number, toSec: number): number {
  const frame = Math.round(ENERGY_FRAME_SEC * ASR_SAMPLE_RATE_HZ);
  let best = toSec;
  let bestEnergy = Infinity;
  for (
    let i = Math.round(fromSec * ASR_SAMPLE_RATE_HZ);
    i + frame <= Math.min(pcm.length, toSec * ASR_SAMPLE_RATE_HZ);
    i += frame
  ) {
    let e = 0;
    for (let j = i; j < i + frame; j++) e += pcm[j] * pcm[j];
    if (e < bestEnergy) {
      bestEnergy = e;
      best = (i + frame / 2) / ASR_SAMPLE_RATE_HZ;
    }
  }
  return best;
}

/**
 * Shares utterances between `workers` groups with balanced total duration (longest first),
 * dropping empty groups. Each group keeps time order.
 */
export function partitionUtterances(utterances: TimeSegment[], workers: number): TimeSegment[][] {
  const groups = Array.from({ length: Math.max(1, workers) }, () => ({
    total: 0,
    items: [] as TimeSegment[],
  }));
  const byLength = [...utterances].sort((a, b) => b.end - b.start - (a.end - a.start));
  for (const u of byLength) {
    const g = groups.reduce((min, x) => (x.total < min.total ? x : min));
    g.items.push(u);
    g.total += u.end - u.start;
  }
  return groups.filter((g) => g.items.length > 0).map((g) => g.items.sort((a, b) => a.start - b.start));
}

/**
 * Pure: the order in which decode lanes that each take the next utterance when free should take
 * them: `first` (a window already encoded, e.g. the language detection's) when given, then the
 * longest first. Why: a long utterance taken last keeps one lane busy after the other has run
 * out of work (a German minute whose 23 s last utterance decoded alone for 6.5 s); longest first
 * bounds that wait by the shortest utterance. Ties keep time order.
 * @example decodeOrder([{ start: 0, end: 3 }, { start: 4, end: 18 }, { start: 19, end: 36 }]) // [2, 1, 0]
 */
export function decodeOrder(utterances: readonly TimeSegment[], first?: TimeSegment): number[] {
  const rank = (i: number) => (utterances[i] === first ? Infinity : utterances[i].end - utterances[i].start);
  return utterances.map((_, i) => i).sort((a, b) => rank(b) - rank(a) || a - b);
}
