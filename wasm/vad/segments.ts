/**
 * @module
 * Speech segments from per-frame speech probabilities: the hysteresis of Silero VAD's
 * `get_speech_timestamps` (snakers4/silero-vad, utils_vad.py), as a pure function.
 * Speech starts on a frame at or above `threshold`; it ends once the probability has
 * stayed below `negThreshold` for `minSilenceMs`; segments shorter than `minSpeechMs`
 * are dropped; kept segments are widened by `padMs` (half the gap when neighbours are
 * closer than two pads, so padding never makes segments overlap).
 */

/** A stretch of speech, in seconds from the start of the audio. */
export interface SpeechSegment {
  start: number;
  end: number;
}

export interface SegmentOptions {
  /** Probability at or above which a frame is speech. Default 0.5 (Silero's). */
  threshold?: number;
  /** Probability below which a frame counts as silence. Default `threshold - 0.15` (Silero's). */
  negThreshold?: number;
  /**
   * Shortest kept segment, before padding. Default 0 (faster-whisper's VAD filter, which also feeds
   * Whisper; Silero's own `get_speech_timestamps` drops under 250 ms): a short word said alone
   * ("Help.", "Et") or heard at the threshold ("ask" through an AC-3 broadcast encoder) crosses it
   * for a frame or a few, and what the VAD drops is never decoded.
   */
  minSpeechMs?: number;
  /** Silence needed to end a segment; shorter pauses stay inside it. Default 100 ms (Silero's). */
  minSilenceMs?: number;
  /** Added before and after each segment. Default 30 ms (Silero's). */
  padMs?: number;
}

/** The defaults (Silero's, but `minSpeechMs`), exported so callers and docs can show them. */
export const DEFAULT_SEGMENT_OPTIONS: Required<Omit<SegmentOptions, 'negThreshold'>> = {
  threshold: 0.5,
  minSpeechMs: 0,
  minSilenceMs: 100,
  padMs: 30,
};
/** Silero's gap between the start and end thresholds. */
const NEG_THRESHOLD_OFFSET = 0.15;

/**
 * Turns frame probabilities into speech segments.
 *
 * @param probabilities one speech probability per frame, in order.
 * @param frameSec duration of one frame in seconds (512 samples at 16 kHz = 0.032 s).
 * @param totalSec duration of the audio in seconds (segments are clamped to it).
 * @example
 * speechSegmentsFromProbabilities([0, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0, 0, 0, 0, 0], 0.032, 0.448)
 * // → [{ start: 0.002, end: 0.318 }]
 */
export function speechSegmentsFromProbabilities(
  probabilities: ArrayLike<number>,
  frameSec: number,
  totalSec: number,
  options: SegmentOptions = {},
): SpeechSegment[] {
  const {
    threshold = DEFAULT_SEGMENT_OPTIONS.threshold,
    negThreshold = Math.max(threshold - NEG_THRESHOLD_OFFSET, 0.01),
    minSpeechMs = DEFAULT_SEGMENT_OPTIONS.minSpeechMs,
    minSilenceMs = DEFAULT_SEGMENT_OPTIONS.minSilenceMs,
    padMs = DEFAULT_SEGMENT_OPTIONS.padMs,
  } = options;
  if (!(frameSec > 0)) throw new RangeError('frameSec must be > 0');
  const minSpeechSec = minSpeechMs / 1000;
  const minSilenceSec = minSilenceMs / 1000;
  const padSec = padMs / 1000;

  const raw: SpeechSegment[] = [];
  let inSpeech = false;
  let start = 0;
  let silenceStart: number | undefined;
  for (let i = 0; i < probabilities.length; i++) {
    const p = probabilities[i];
    const t = i * frameSec;
    if (p >= threshold) {
      silenceStart = undefined; // a pause that did not last long enough
      if (!inSpeech) {
        inSpeech = true;
        start = t;
      }
      continue;
    }
    if (!inSpeech || p >= negThreshold) continue; // between thresholds: no change of state
    silenceStart ??= t;
    if (t + frameSec - silenceStart < minSilenceSec) continue;
    if (silenceStart - start >= minSpeechSec) raw.push({ start, end: silenceStart });
    inSpeech = false;
    silenceStart = undefined;
  }
  if (inSpeech && totalSec - start >= minSpeechSec) raw.push({ start, end: totalSec });
  return pad(raw, padSec, totalSec);
}

/** Widens segments by `padSec`, splitting gaps narrower than two pads in the middle. */
function pad(segments: SpeechSegment[], padSec: number, totalSec: number): SpeechSegment[] {
  const padded = segments.map((segment) => ({ ...segment }));
  for (let i = 0; i < padded.length; i++) {
    const segment = padded[i];
    if (i === 0) segment.start = Math.max(0, segment.start - padSec);
    const next = padded[i + 1];
    if (next) {
      const gap = next.start - segment.end;
      const share = gap < 2 * padSec ? gap / 2 : padSec;
      segment.end += share;
      next.start = Math.max(0, next.start - share);
    } else {
      segment.end = Math.min(totalSec, segment.end + padSec);
    }
  }
  return padded.map(({ start, end }) => ({ start: round(start), end: round(end) }));
}

/** Millisecond precision: more digits only carry float noise into the results. */
function round(sec: number): number {
  return Math.round(sec * 1000) / 1000;
}
