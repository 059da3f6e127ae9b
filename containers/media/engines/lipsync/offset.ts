/**
 * @module containers/media/engines/lipsync/offset
 * Pure A/V offset estimation: cross-correlate a mouth-opening track with a speech energy
 * envelope and report the lag at the correlation peak (sub-sample by parabolic interpolation).
 *
 * Both tracks are band-limited to the syllable rate (0.5–8 Hz: slower is posture and loudness
 * drift, faster is landmark jitter) and differentiated, so the correlation compares opening and
 * closing *movements* with rises and falls of energy. Raw levels give a peak so broad that
 * neighbouring syllables (~200 ms apart) compete with it; velocities give a narrow one.
 * The correlation at each lag is a Pearson coefficient over the overlap only, so lags with
 * less overlap are not penalised or favoured.
 */

export interface OffsetEstimate {
  /** Seconds the audio is late versus the video (negative: audio early). */
  lagSec: number;
  /**
   * How distinct the peak is, 0..1: the peak correlation minus the best correlation at least
   * COMPETITOR_GAP_SEC away from it (capped at the peak itself). A periodic or flat curve — no
   * real relation, or syllables so regular that one period looks like another — scores ~0.
   */
  confidence: number;
  /** Pearson correlation at the peak, -1..1 (diagnostics). */
  peak: number;
}

export interface EstimateLagOptions {
  /** Half-width of the searched lag range, s. Default MAX_LAG_SEC. */
  maxLagSec?: number;
  /** Centre of the searched lag range, s (the lag expected when in sync). Default 0. */
  centerSec?: number;
  /** Pass band applied to both tracks, Hz. Default SYLLABLE_BAND_HZ. */
  bandHz?: readonly [number, number];
}

/**
 * Half-width of the lag search. A/V errors beyond ±0.6 s are rare and look like a different
 * problem; a wider range mostly adds chances to lock onto a neighbouring syllable.
 */
export const MAX_LAG_SEC = 0.6;
/** Syllable-rate band: mouth cycles and energy bursts of speech are 2–7 per second. */
export const SYLLABLE_BAND_HZ = [0.5, 8] as const;
/** A competing peak must be this far from the best one (less than one syllable apart is the same peak). */
export const COMPETITOR_GAP_SEC = 0.15;

/** Linear resampling of a track at `fromHz` to `toHz`. */
export function resample(x: ArrayLike<number>, fromHz: number, toHz: number): Float64Array {
  if (x.length === 0) return new Float64Array(0);
  const n = Math.floor(((x.length - 1) / fromHz) * toHz) + 1;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const p = (i / toHz) * fromHz;
    const i0 = Math.floor(p),
      i1 = Math.min(x.length - 1, i0 + 1),
      w = p - i0;
    out[i] = x[i0] * (1 - w) + x[i1] * w;
  }
  return out;
}

/** Second-order Butterworth section (RBJ cookbook), normalised so a0 = 1. */
function biquad(kind: 'low' | 'high', cutoffHz: number, hz: number): number[] {
  const w = (2 * Math.PI * cutoffHz) / hz,
    cos = Math.cos(w),
    alpha = Math.sin(w) / Math.SQRT2;
  const a0 = 1 + alpha;
  const b1 = kind === 'low' ? 1 - cos : -(1 + cos);
  const b0 = kind === 'low' ? b1 / 2 : -b1 / 2;
  return [b0 / a0, b1 / a0, b0 / a0, (-2 * cos) / a0, (1 - alpha) / a0];
}

/** Runs a biquad forward then backward (zero phase), starting from the edge value to avoid a step. */
function filtfilt(x: Float64Array, [b0, b1, b2, a1, a2]: number[]): Float64Array {
  const pass = (src: Float64Array, dst: Float64Array, reverse: boolean) => {
    const n = src.length,
      at = (i: number) => (reverse ? n - 1 - i : i);
    const first = src[at(0)];
    const steady = (b0 + b1 + b2) / (1 + a1 + a2); // DC gain: 1 for low-pass, 0 for high-pass
    let x1 = first,
      x2 = first,
      y1 = first * steady,
      y2 = first * steady;
    for (let i = 0; i < n; i++) {
      const v = src[at(i)];
      const y = b0 * v + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
      dst[at(i)] = y;
      x2 = x1;
      x1 = v;
      y2 = y1;
      y1 = y;
    }
  };
  const tmp = new Float64Array(x.length),
    out = new Float64Array(x.length);
  pass(x, tmp, false);
  pass(tmp, out, true);
  return out;
}

/** Band-limits to `band`, then central difference (movement, not level). */
export function syllableVelocity(
  x: ArrayLike<number>,
  hz: number,
  band: readonly [number, number] = SYLLABLE_BAND_HZ,
): Float64Array {
  if (x.length < 3) return new Float64Array(x.length);
  let y: Float64Array = Float64Array.from(x);
  const mean = y.reduce((a, b) => a + b, 0) / y.length;
  y = y.map((v) => v - mean);
  if (band[0] > 0) y = filtfilt(y, biquad('high', band[0], hz));
  if (band[1] < hz / 2) y = filtfilt(y, biquad('low', band[1], hz));
  const d = new Float64Array(y.length);
  for (let i = 1; i < y.length - 1; i++) d[i] = (y[i + 1] - y[i - 1]) / 2;
  return d;
}

/** Pearson correlation of m[t] with a[t + lag] over the overlap. */
function pearsonAt(m: Float64Array, a: Float64Array, lag: number): number {
  const n = Math.min(m.length, a.length);
  const lo = Math.max(0, -lag),
    hi = Math.min(n, n - lag);
  const cnt = hi - lo;
  if (cnt < 3) return 0;
  let sm = 0,
    sa = 0,
    smm = 0,
    saa = 0,
    sma = 0;
  for (let t = lo; t < hi; t++) {
    const x = m[t],
      y = a[t + lag];
    sm += x;
    sa += y;
    smm += x * x;
    saa += y * y;
    sma += x * y;
  }
  const cov = sma - (sm * sa) / cnt;
  const den = Math.sqrt((smm - (sm * sm) / cnt) * (saa - (sa * sa) / cnt));
  return den > 0 ? cov / den : 0;
}

/**
 * Pure: how late `audio` is behind `mouth`, both sampled at `hz` from the same time origin.
 * Positive lag: an event in `mouth` at t shows up in `audio` at t + lag.
 * @example estimateLag(mouth100Hz, energy100Hz, 100) // { lagSec: 0.3, confidence: 0.4, peak: 0.6 }
 */
export function estimateLag(
  mouth: ArrayLike<number>,
  audio: ArrayLike<number>,
  hz: number,
  options: EstimateLagOptions = {},
): OffsetEstimate {
  const { maxLagSec = MAX_LAG_SEC, centerSec = 0, bandHz = SYLLABLE_BAND_HZ } = options;
  const n = Math.min(mouth.length, audio.length);
  const m = syllableVelocity(Array.prototype.slice.call(mouth, 0, n), hz, bandHz);
  const a = syllableVelocity(Array.prototype.slice.call(audio, 0, n), hz, bandHz);
  const lo = Math.round((centerSec - maxLagSec) * hz),
    hi = Math.round((centerSec + maxLagSec) * hz);
  const corr = new Float64Array(hi - lo + 1);
  for (let L = lo; L <= hi; L++) corr[L - lo] = pearsonAt(m, a, L);
  let best = 0;
  for (let i = 1; i < corr.length; i++) if (corr[i] > corr[best]) best = i;
  let frac = 0;
  if (best > 0 && best < corr.length - 1) {
    const y0 = corr[best - 1],
      y1 = corr[best],
      y2 = corr[best + 1];
    const den = y0 - 2 * y1 + y2;
    if (den !== 0) frac = Math.max(-0.5, Math.min(0.5, (0.5 * (y0 - y2)) / den));
  }
  const gap = Math.round(COMPETITOR_GAP_SEC * hz);
  let competitor = -1;
  for (let i = 0; i < corr.length; i++)
    if (Math.abs(i - best) >= gap) competitor = Math.max(competitor, corr[i]);
  const peak = corr[best] ?? 0;
  const confidence = Math.max(0, Math.min(peak, peak - competitor));
  return { lagSec: (best + lo + frac) / hz, confidence, peak };
}
