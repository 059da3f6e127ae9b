/**
 * @module containers/media/engines/lipsync/offset
 * Pure A/V offset estimation: cross-correlate the mouth-opening track with the speech energy
 * envelope and report the lag at the correlation peak (sub-sample by parabolic interpolation).
 * Both tracks are z-scored and differentiated first: onsets (mouth opens, energy rises) carry
 * the timing, slow drifts in level do not.
 */

export interface OffsetEstimate {
  /** Seconds the audio is late versus the video (negative: audio early). */
  lagSec: number;
  /** Peak normalised correlation in -1..1 (≥ ~0.3 is a usable talking-head estimate). */
  confidence: number;
}

/** Search range: A/V errors beyond ±0.8 s are rare and look like a different problem. */
export const MAX_LAG_SEC = 0.8;

/** Linear resampling of a track at `fromHz` to `toHz`. */
export function resample(x: ArrayLike<number>, fromHz: number, toHz: number): Float64Array {
  const n = Math.floor(((x.length - 1) / fromHz) * toHz) + 1;
  const out = new Float64Array(Math.max(0, n));
  for (let i = 0; i < n; i++) {
    const p = (i / toHz) * fromHz;
    const i0 = Math.floor(p), i1 = Math.min(x.length - 1, i0 + 1), w = p - i0;
    out[i] = x[i0] * (1 - w) + x[i1] * w;
  }
  return out;
}

function prepare(x: Float64Array): Float64Array {
  const d = new Float64Array(x.length);
  for (let i = 1; i < x.length; i++) d[i] = Math.max(0, x[i] - x[i - 1]); // onsets only
  const mean = d.reduce((a, b) => a + b, 0) / d.length;
  const sd = Math.sqrt(d.reduce((a, b) => a + (b - mean) ** 2, 0) / d.length) || 1;
  return d.map((v) => (v - mean) / sd);
}

/**
 * Pure: lag of `audio` behind `mouth`, both sampled at `hz`.
 * @example estimateLag(mouth100Hz, energy100Hz, 100) // { lagSec: 0.3, confidence: 0.6 }
 */
export function estimateLag(mouth: ArrayLike<number>, audio: ArrayLike<number>, hz: number, maxLagSec = MAX_LAG_SEC): OffsetEstimate {
  const n = Math.min(mouth.length, audio.length);
  const m = prepare(Float64Array.from({ length: n }, (_, i) => mouth[i]));
  const a = prepare(Float64Array.from({ length: n }, (_, i) => audio[i]));
  const maxLag = Math.round(maxLagSec * hz);
  const corr = new Float64Array(2 * maxLag + 1);
  for (let L = -maxLag; L <= maxLag; L++) {
    let s = 0, cnt = 0;
    for (let t = Math.max(0, -L); t < n && t + L < n; t++) {
      s += m[t] * a[t + L];
      cnt++;
    }
    corr[L + maxLag] = cnt ? s / cnt : 0;
  }
  let best = 0;
  for (let i = 1; i < corr.length; i++) if (corr[i] > corr[best]) best = i;
  let frac = 0;
  if (best > 0 && best < corr.length - 1) {
    const y0 = corr[best - 1], y1 = corr[best], y2 = corr[best + 1];
    const den = y0 - 2 * y1 + y2;
    if (den !== 0) frac = Math.max(-0.5, Math.min(0.5, (0.5 * (y0 - y2)) / den));
  }
  return { lagSec: (best - maxLag + frac) / hz, confidence: corr[best] };
}
