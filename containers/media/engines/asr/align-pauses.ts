/**
 * @module containers/media/engines/asr/align-pauses
 * Pure pause finding on 16 kHz PCM by frame energy, for phrase-by-phrase alignment: the
 * threshold adapts to the clip (between its noise floor and its speech level), so synthetic
 * speech with digital silence and real recordings with room noise both split at their pauses.
 */
import type { TimeSegment } from '../../../../src/contract/media.js';
import { ASR_SAMPLE_RATE_HZ } from './pcm.js';

export interface PauseOptions {
  /** Energy frame, seconds. Default 0.01 (the decoder's frame rate). */
  frameSec?: number;
  /** Shortest quiet run reported as a pause, seconds. Default 0.15 (longer than stop closures). */
  minPauseSec?: number;
  /** Louder blips shorter than this inside a quiet run do not break it, seconds. Default 0.03. */
  maxBlipSec?: number;
}

/** Floor for the dB of an all-zero frame (espeak's silence), so percentiles stay finite. */
const SILENT_DB = -100;
/** Quiet = this far above the noise floor at least… */
const FLOOR_MARGIN_DB = 8;
/** …and this far below the speech level at least (so a clean clip's quiet consonants stay speech). */
const SPEECH_RANGE_DB = 35;

/** Pure: RMS level (dBFS) of each frame of `pcm`. */
export function frameLevelsDb(pcm: Int16Array, frameSec = 0.01): Float64Array {
  const size = Math.max(1, Math.round(frameSec * ASR_SAMPLE_RATE_HZ));
  const out = new Float64Array(Math.floor(pcm.length / size));
  for (let f = 0; f < out.length; f++) {
    let e = 0;
    for (let i = f * size; i < (f + 1) * size; i++) e += pcm[i] * pcm[i];
    out[f] = e > 0 ? Math.max(SILENT_DB, 10 * Math.log10(e / size / 32768 ** 2)) : SILENT_DB;
  }
  return out;
}

/**
 * Pure: the pauses of `pcm` (including leading and trailing silence of any length), in time
 * order, in seconds.
 * @example findPauses(pcm) // [{ start: 0, end: 0.12 }, { start: 2.31, end: 2.66 }, …]
 */
export function findPauses(pcm: Int16Array, options: PauseOptions = {}): TimeSegment[] {
  const { frameSec = 0.01, minPauseSec = 0.15, maxBlipSec = 0.03 } = options;
  const db = frameLevelsDb(pcm, frameSec);
  if (db.length === 0) return [];
  const sorted = Float64Array.from(db).sort();
  const floor = sorted[Math.floor(sorted.length * 0.1)];
  const speech = sorted[Math.floor(sorted.length * 0.95)];
  const threshold = Math.max(floor + FLOOR_MARGIN_DB, speech - SPEECH_RANGE_DB);
  const quiet = Array.from(db, (d) => d < threshold);
  fillShortRuns(quiet, false, Math.round(maxBlipSec / frameSec));
  const out: TimeSegment[] = [];
  const durationSec = pcm.length / ASR_SAMPLE_RATE_HZ;
  for (let i = 0; i < quiet.length;) {
    if (!quiet[i]) {
      i++;
      continue;
    }
    let j = i;
    while (j < quiet.length && quiet[j]) j++;
    const edge = i === 0 || j === quiet.length;
    if (edge || (j - i) * frameSec >= minPauseSec) {
      out.push({ start: r3(i * frameSec), end: r3(j === quiet.length ? durationSec : j * frameSec) });
    }
    i = j;
  }
  return out;
}

/** Pure: the speech between `pauses` within `[0, durationSec]`. */
export function speechSpans(pauses: TimeSegment[], durationSec: number): TimeSegment[] {
  const out: TimeSegment[] = [];
  let t = 0;
  for (const p of pauses) {
    if (p.start > t) out.push({ start: t, end: p.start });
    t = Math.max(t, p.end);
  }
  if (durationSec > t) out.push({ start: t, end: durationSec });
  return out;
}

/** Flips interior runs of `value` no longer than `maxLen` (a click inside silence). */
function fillShortRuns(flags: boolean[], value: boolean, maxLen: number): void {
  for (let i = 0; i < flags.length;) {
    let j = i;
    while (j < flags.length && flags[j] === flags[i]) j++;
    if (flags[i] === value && i > 0 && j < flags.length && j - i <= maxLen) flags.fill(!value, i, j);
    i = j;
  }
}

const r3 = (x: number): number => Math.round(x * 1000) / 1000;
