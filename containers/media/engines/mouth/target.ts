/**
 * @module containers/media/engines/mouth/target
 * Pure: how open the mouth should be in each output frame, from the new speech's energy
 * envelope. Loudness and openness live on different scales, so the envelope is only trusted
 * for its ORDER: each frame's level is turned into a quantile of the speech's levels and read
 * back as the same quantile of the openness the source actually shows (quantile matching).
 * The mouth then spans exactly the range of shapes the source can supply.
 */

export interface TargetOptions {
  /** Output frame rate. */
  fps: number;
  /** Number of output frames. */
  frames: number;
  /** Envelope samples per second (lipsync/envelope.ts: 100). */
  envelopeHz: number;
  /**
   * The mouth shapes a sound before it is heard: the frame at t shows the audio at t + lead.
   * Default 0 here; the editor passes `MOUTH_LEADS_AUDIO_SEC`.
   */
  leadSec?: number;
  /** Below (loudest − this) dB a frame counts as silence: mouth at its most closed. Default 40. */
  silenceBelowPeakDb?: number;
  /** Half-width, in frames, of the moving average applied to the frame levels. Default 1. */
  smoothFrames?: number;
}

/** Mean envelope level (dB) over each output frame's span, shifted by the lead. */
export function frameLevels(
  envelopeDb: ArrayLike<number>,
  { fps, frames, envelopeHz, leadSec = 0 }: TargetOptions,
): Float64Array {
  const out = new Float64Array(frames);
  const n = envelopeDb.length;
  let floor = Infinity;
  for (let i = 0; i < n; i++) floor = Math.min(floor, envelopeDb[i]);
  if (!Number.isFinite(floor)) floor = -80;
  for (let f = 0; f < frames; f++) {
    const t0 = f / fps + leadSec,
      t1 = (f + 1) / fps + leadSec;
    const i0 = Math.max(0, Math.floor(t0 * envelopeHz)),
      i1 = Math.min(n, Math.max(i0 + 1, Math.ceil(t1 * envelopeHz)));
    let s = 0,
      c = 0;
    for (let i = i0; i < i1; i++) ((s += envelopeDb[i]), c++);
    // Past the speech's end (the lead looks ahead) the mouth is at rest.
    out[f] = c ? s / c : floor;
  }
  return out;
}

/** Moving average over ±`half` samples (edges use what exists). */
export function smooth(x: ArrayLike<number>, half: number): Float64Array {
  const out = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) {
    let s = 0,
      c = 0;
    for (let k = Math.max(0, i - half); k <= Math.min(x.length - 1, i + half); k++) ((s += x[k]), c++);
    out[i] = s / c;
  }
  return out;
}

/** The q-quantile (0..1) of an ascending array, linearly interpolated. */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return NaN;
  const p = Math.max(0, Math.min(1, q)) * (sorted.length - 1);
  const i = Math.floor(p),
    j = Math.min(sorted.length - 1, i + 1);
  return sorted[i] + (sorted[j] - sorted[i]) * (p - i);
}

/**
 * Maps each value of `levels` to the value of `reference` at the same quantile. Ties get the
 * quantile of their first occurrence, so digital silence maps to the most closed mouth.
 * @example quantileMap([0, 5, 10], [0.1, 0.2, 0.3]) // [0.1, 0.2, 0.3]
 */
export function quantileMap(levels: ArrayLike<number>, reference: ArrayLike<number>): Float64Array {
  const ref = Float64Array.from(reference).sort();
  const sorted = Float64Array.from(levels).sort();
  const n = sorted.length;
  const out = new Float64Array(levels.length);
  for (let i = 0; i < levels.length; i++) {
    // Lower bound: number of values strictly below.
    let lo = 0,
      hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid] < levels[i]) lo = mid + 1;
      else hi = mid;
    }
    out[i] = quantile(ref, n > 1 ? lo / (n - 1) : 0);
  }
  return out;
}

/**
 * Target mouth openness per output frame: frame levels (with lead) → silence gate → light
 * smoothing → quantile-matched onto the source's openness values.
 * @example targetOpenness(envDb, sourceOpenness, { fps: 25, frames: 250, envelopeHz: 100, leadSec: 0.15 })
 */
export function targetOpenness(
  envelopeDb: ArrayLike<number>,
  sourceOpenness: ArrayLike<number>,
  options: TargetOptions,
): Float64Array {
  const { silenceBelowPeakDb = 40, smoothFrames = 1 } = options;
  const levels = frameLevels(envelopeDb, options);
  let peak = -Infinity;
  for (const v of levels) peak = Math.max(peak, v);
  const gate = peak - silenceBelowPeakDb;
  // Everything under the gate is one level (silence), so it all maps to the closed end.
  for (let i = 0; i < levels.length; i++) if (levels[i] < gate) levels[i] = gate;
  return quantileMap(smooth(levels, smoothFrames), sourceOpenness);
}
