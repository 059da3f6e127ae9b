/**
 * @module analytics/speech/pauses
 * Silent pauses inside the speech (between the first word's start and the last word's end).
 *
 * Two sources of silence are merged (union): gaps between consecutive recognised words, and
 * the complement of the VAD speech segments. Union, because each source misses pauses the
 * other sees: VAD pads and bridges short silences, while recognisers (Whisper especially)
 * stretch word ends across silences. One guard: VAD "silence" is never allowed to cover the
 * core (middle half) of a recognised word — that is a quiet word the VAD missed, and word
 * edges are only trusted loosely.
 */
import type { TimeSegment } from '../../contract/media';
import type { Token } from './types';

/**
 * Default shortest pause, seconds. 250 ms is the conventional lower bound for silent pauses in
 * speech research since Goldman-Eisler (1968): shorter silences are mostly stop closures
 * inside words, not pauses.
 */
export const MIN_PAUSE_SEC = 0.25;
/**
 * Default long-pause threshold, seconds. Campione & Véronis (2002, "A large-scale multilingual
 * study of silent pause duration") found pause durations cluster into brief (< 0.2 s),
 * medium (0.2–1 s) and long (> 1 s) categories.
 */
export const LONG_PAUSE_SEC = 1.0;

export interface PauseOptions {
  /** See {@link MIN_PAUSE_SEC}. */
  minPauseSec?: number;
  /** See {@link LONG_PAUSE_SEC}. */
  longPauseSec?: number;
}

export interface Pause {
  start: number;
  end: number;
  duration: number;
  is_long: boolean;
}

/** Sorts and merges overlapping or touching intervals. */
export function mergeIntervals(intervals: readonly TimeSegment[]): TimeSegment[] {
  const sorted = intervals.filter((s) => s.end > s.start).sort((a, b) => a.start - b.start);
  const out: TimeSegment[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ start: s.start, end: s.end });
  }
  return out;
}

/** `intervals` minus `cuts` (both merged first). */
function subtract(intervals: readonly TimeSegment[], cuts: readonly TimeSegment[]): TimeSegment[] {
  const out: TimeSegment[] = [];
  const c = mergeIntervals(cuts);
  for (const s of mergeIntervals(intervals)) {
    let from = s.start;
    for (const k of c) {
      if (k.end <= from) continue;
      if (k.start >= s.end) break;
      if (k.start > from) out.push({ start: from, end: k.start });
      from = Math.max(from, k.end);
    }
    if (from < s.end) out.push({ start: from, end: s.end });
  }
  return out;
}

/**
 * Pauses of at least `minPauseSec` between the first and last word, sorted by time.
 * Without words there is no "inside the speech", so there are no pauses.
 *
 * @example
 * detectPauses(tokens, vadSegments, { longPauseSec: 1.5 }) // → [{ start: 4.2, end: 6.2, duration: 2, is_long: true }]
 */
export function detectPauses(
  tokens: readonly Token[],
  speechSegments: readonly TimeSegment[],
  { minPauseSec = MIN_PAUSE_SEC, longPauseSec = LONG_PAUSE_SEC }: PauseOptions = {},
): Pause[] {
  if (tokens.length === 0) return [];
  const from = tokens[0].start;
  const to = tokens.reduce((m, t) => Math.max(m, t.end), -Infinity);

  // Word gaps: time covered by no word at all.
  const silence: TimeSegment[] = subtract([{ start: from, end: to }], tokens);

  const vad = speechSegments.filter((s) => Number.isFinite(s.start) && Number.isFinite(s.end));
  if (vad.length > 0) {
    const vadSilence = subtract([{ start: from, end: to }], vad);
    const cores = tokens.map((t) => {
      const q = (t.end - t.start) / 4;
      return { start: t.start + q, end: t.end - q };
    });
    silence.push(...subtract(vadSilence, cores));
  }

  return mergeIntervals(silence)
    .filter((s) => s.end - s.start >= minPauseSec - 1e-9)
    .map((s) => {
      const duration = s.end - s.start;
      return { start: s.start, end: s.end, duration, is_long: duration >= longPauseSec - 1e-9 };
    });
}
