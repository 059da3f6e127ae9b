/**
 * @module analytics/speech/prosody
 * Pitch and energy tracks from mono PCM, and the summary statistics style/emotion use.
 *
 * Pitch: YIN (de Cheveigné & Kawahara 2002) — cumulative-mean-normalised difference function,
 * absolute threshold, parabolic interpolation — searched over 50–400 Hz, the range of adult
 * speaking voices. For speed and robustness the signal is first low-passed at 1 kHz (keeps
 * the first harmonics, removes formant energy that causes octave errors) and decimated to
 * ≈ 5 kHz, which leaves a third of the samples to search.
 * Energy: RMS of the raw samples over the same window, in dBFS (0 dB = full-scale square
 * wave; a full-scale sine reads −3.01 dB), floored at −100 dB so silence stays finite.
 *
 * Frame i covers [i·frame_sec, (i+1)·frame_sec); its analysis window is centred there.
 */
import type { ProsodyTrack } from '../../contract/media';

/** Default hop between frames, seconds (10 ms, the usual speech-analysis frame rate). */
export const FRAME_SEC = 0.01;
/** Default analysis window, seconds: ≥ 1.5 periods of the lowest pitch (50 Hz → 20 ms). */
export const WINDOW_SEC = 0.03;
/** Default pitch search range, Hz: adult speaking voices (male ~85–180, female ~165–255, plus excursions). */
export const MIN_PITCH_HZ = 50;
export const MAX_PITCH_HZ = 400;
/** Default YIN absolute threshold on the normalised difference (the paper found 0.1–0.15 works). */
export const YIN_THRESHOLD = 0.15;
/** Default gate: frames quieter than this have no pitch, dBFS. */
export const SILENCE_DBFS = -55;
/** Floor of the energy track, dBFS (digital silence would be −Infinity). */
export const ENERGY_FLOOR_DBFS = -100;
/** Pitch analysis runs at about this rate; 5 kHz still gives 400 Hz a 12-sample period (interpolated). */
const ANALYSIS_RATE_HZ = 5000;
/** Low-pass cut-off before pitch analysis, Hz. */
const LOWPASS_HZ = 1000;

export interface ProsodyOptions {
  /** Hop between frames, seconds. Default {@link FRAME_SEC}. */
  frameSec?: number;
  /** Analysis window, seconds. Default {@link WINDOW_SEC}. */
  windowSec?: number;
  /** Lowest pitch searched, Hz. Default {@link MIN_PITCH_HZ}. */
  minPitchHz?: number;
  /** Highest pitch searched, Hz. Default {@link MAX_PITCH_HZ}. */
  maxPitchHz?: number;
  /** YIN threshold. Default {@link YIN_THRESHOLD}. */
  threshold?: number;
  /** Frames quieter than this are unvoiced, dBFS. Default {@link SILENCE_DBFS}. */
  silenceDb?: number;
}

/** In-place biquad low-pass (RBJ cookbook) with quality factor q. */
function lowpass(x: Float32Array, sampleRate: number, cutoffHz: number, q: number): void {
  const w0 = (2 * Math.PI * Math.min(cutoffHz, sampleRate * 0.45)) / sampleRate;
  const alpha = Math.sin(w0) / (2 * q);
  const cos = Math.cos(w0);
  const a0 = 1 + alpha;
  const b0 = (1 - cos) / 2 / a0;
  const b1 = (1 - cos) / a0;
  const b2 = b0;
  const a1 = (-2 * cos) / a0;
  const a2 = (1 - alpha) / a0;
  let x1 = 0,
    x2 = 0,
    y1 = 0,
    y2 = 0;
  for (let i = 0; i < x.length; i++) {
    const x0 = x[i];
    const y0 = b0 * x0 + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
    x2 = x1;
    x1 = x0;
    y2 = y1;
    y1 = y0;
    x[i] = y0;
  }
}

/**
 * Pitch (Hz, null where unvoiced or silent) and energy (dBFS) per frame.
 *
 * @param samples mono PCM in −1..1
 * @param sampleRate Hz (e.g. 16000)
 * @example
 * const track = computeProsody(pcm16k, 16000); // track.frame_sec === 0.01
 */
export function computeProsody(
  samples: Float32Array,
  sampleRate: number,
  options: ProsodyOptions = {},
): ProsodyTrack {
  const {
    frameSec = FRAME_SEC,
    windowSec = WINDOW_SEC,
    minPitchHz = MIN_PITCH_HZ,
    maxPitchHz = MAX_PITCH_HZ,
    threshold = YIN_THRESHOLD,
    silenceDb = SILENCE_DBFS,
  } = options;
  if (!(sampleRate > 0) || !(frameSec > 0))
    throw new RangeError('computeProsody: sampleRate and frameSec must be > 0');
  const hop = frameSec * sampleRate;
  const frames = Math.floor(samples.length / hop);
  const pitch: Array<number | null> = new Array(frames).fill(null);
  const energy: number[] = new Array(frames).fill(ENERGY_FLOOR_DBFS);
  if (frames === 0) return { frame_sec: frameSec, pitch_hz: pitch, energy_db: energy };

  // 4th-order Butterworth low-pass (two biquads), then decimation.
  const q = Math.max(1, Math.floor(sampleRate / ANALYSIS_RATE_HZ));
  const filtered = Float32Array.from(samples);
  lowpass(filtered, sampleRate, LOWPASS_HZ, 0.5412);
  lowpass(filtered, sampleRate, LOWPASS_HZ, 1.3066);
  const rate = sampleRate / q;
  const x = new Float64Array(Math.ceil(samples.length / q));
  for (let i = 0, j = 0; j < x.length; i += q, j++) x[j] = filtered[i];

  const win = Math.max(2, Math.round(windowSec * sampleRate));
  const W = Math.max(2, Math.round(windowSec * rate));
  const tauMax = Math.min(Math.ceil(rate / minPitchHz), x.length);
  const tauMin = Math.max(2, Math.floor(rate / maxPitchHz));
  const cmnd = new Float64Array(tauMax + 2);
  // Prefix sums of squares of the decimated signal: window energies in O(1).
  const sq = new Float64Array(x.length + 1);
  for (let i = 0; i < x.length; i++) sq[i + 1] = sq[i] + x[i] * x[i];

  for (let f = 0; f < frames; f++) {
    const centre = (f + 0.5) * hop;
    // Energy on the raw signal.
    const e0 = Math.max(0, Math.round(centre - win / 2));
    const e1 = Math.min(samples.length, e0 + win);
    let sum = 0;
    for (let i = e0; i < e1; i++) sum += samples[i] * samples[i];
    const rms = Math.sqrt(sum / Math.max(1, e1 - e0));
    const db = rms > 0 ? Math.max(ENERGY_FLOOR_DBFS, 20 * Math.log10(rms)) : ENERGY_FLOOR_DBFS;
    energy[f] = db;
    if (db < silenceDb || tauMax <= tauMin + 1) continue;

    // YIN difference d(τ) = E(s) + E(s+τ) − 2·Σ x[j]·x[j+τ] (energies from prefix sums), with
    // its cumulative-mean normalisation computed on the fly. The search stops at the first
    // dip below the threshold, so voiced frames rarely pay for the whole lag range.
    const s = Math.round(centre / q - (W + tauMax) / 2);
    if (s < 0 || s + W + tauMax > x.length) continue; // window would leave the signal
    const e0w = sq[s + W] - sq[s];
    let running = 0;
    let best = -1;
    cmnd[0] = 1;
    for (let tau = 1; tau <= tauMax; tau++) {
      let r = 0;
      const end = s + W;
      for (let j = s, k = s + tau; j < end; j++, k++) r += x[j] * x[k];
      const dt = Math.max(0, e0w + (sq[s + tau + W] - sq[s + tau]) - 2 * r);
      running += dt;
      cmnd[tau] = running > 0 ? (dt * tau) / running : 1;
      if (best < 0) {
        if (tau > tauMin && cmnd[tau - 1] < threshold && cmnd[tau] >= cmnd[tau - 1]) best = tau - 1;
      } else break; // one lag past the minimum is enough for interpolation
    }
    if (best < 0) continue;
    // Parabolic interpolation around the dip for sub-sample period.
    const a = cmnd[best - 1],
      b = cmnd[best],
      c = cmnd[best + 1];
    const den = a - 2 * b + c;
    const shift = den !== 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (a - c)) / den)) : 0;
    const hz = rate / (best + shift);
    if (hz >= minPitchHz * 0.95 && hz <= maxPitchHz * 1.05) pitch[f] = hz;
  }
  return { frame_sec: frameSec, pitch_hz: pitch, energy_db: energy };
}

/** Voiced time needed before pitch statistics mean anything, seconds. */
export const MIN_VOICED_SEC = 1.0;

export interface ProsodySummary {
  /** Seconds of voiced frames. */
  voiced_sec: number;
  /** Median pitch of voiced frames, Hz; null with too little voicing. */
  median_pitch_hz: number | null;
  /**
   * Pitch variation: standard deviation in semitones around the median, over voiced frames,
   * ignoring frames more than an octave away (octave errors). Semitones make it independent of
   * voice register; null with less than {@link MIN_VOICED_SEC} of voicing.
   */
  pitch_std_st: number | null;
  /** Standard deviation of voiced-frame energy, dB (gain-independent loudness variation). */
  energy_std_db: number | null;
  /** Mean voiced-frame energy, dBFS (depends on recording gain; informative only). */
  mean_energy_db: number | null;
}

const std = (xs: readonly number[]): number => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length);
};

/** Statistics of a prosody track for style and emotion. */
export function summarizeProsody(track: ProsodyTrack): ProsodySummary {
  const voiced: number[] = [];
  const voicedEnergy: number[] = [];
  track.pitch_hz.forEach((p, i) => {
    if (p !== null && Number.isFinite(p) && p > 0) {
      voiced.push(p);
      const e = track.energy_db[i];
      if (Number.isFinite(e)) voicedEnergy.push(e);
    }
  });
  const voicedSec = voiced.length * track.frame_sec;
  if (voicedSec < MIN_VOICED_SEC || voiced.length < 2) {
    return {
      voiced_sec: voicedSec,
      median_pitch_hz: null,
      pitch_std_st: null,
      energy_std_db: null,
      mean_energy_db: null,
    };
  }
  const sorted = [...voiced].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const st = voiced.map((p) => 12 * Math.log2(p / median)).filter((s) => Math.abs(s) <= 12);
  return {
    voiced_sec: voicedSec,
    median_pitch_hz: median,
    pitch_std_st: st.length >= 2 ? std(st) : null,
    energy_std_db: voicedEnergy.length >= 2 ? std(voicedEnergy) : null,
    mean_energy_db: voicedEnergy.length
      ? voicedEnergy.reduce((a, b) => a + b, 0) / voicedEnergy.length
      : null,
  };
}
