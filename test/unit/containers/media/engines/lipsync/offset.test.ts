import { describe, expect, it } from 'vitest';
import {
  estimateLag,
  resample,
  MAX_LAG_SEC,
} from '../../../../../../containers/media/engines/lipsync/offset.js';
import { floorEnvelope } from '../../../../../../containers/media/engines/lipsync/envelope.js';
import { MIN_CONFIDENCE } from '../../../../../../containers/media/engines/lipsync/av-offset.js';

const HZ = 100;

/** Deterministic PRNG (mulberry32), so failures reproduce. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Syllable-like activity: smooth bumps every 150–350 ms with random heights, `sec` long at HZ. */
function syllables(sec: number, rand: () => number): Float64Array {
  const n = Math.round(sec * HZ);
  const x = new Float64Array(n);
  for (let t = 0.1; t < sec; t += 0.15 + 0.2 * rand()) {
    const height = 0.3 + rand(),
      width = 0.05 + 0.04 * rand();
    for (let i = 0; i < n; i++) x[i] += height * Math.exp(-(((i / HZ - t) / width) ** 2));
  }
  return x;
}

/** The same activity `lagSec` later (audio late when positive), as a dB-like level plus noise. */
function delayedEnergy(
  activity: Float64Array,
  lagSec: number,
  noise: number,
  rand: () => number,
): Float64Array {
  const d = Math.round(lagSec * HZ);
  return activity.map((_, i) => {
    const src = activity[Math.min(activity.length - 1, Math.max(0, i - d))];
    return 20 * Math.log10(0.05 + src) + noise * (rand() - 0.5);
  });
}

describe('estimateLag', () => {
  it('should find a known audio delay to within 10 ms, with a usable confidence', () => {
    const rand = rng(1);
    const mouth = syllables(8, rand);
    const est = estimateLag(mouth, delayedEnergy(mouth, 0.3, 3, rand), HZ);
    expect(Math.abs(est.lagSec - 0.3)).toBeLessThanOrEqual(0.01);
    expect(est.confidence).toBeGreaterThanOrEqual(MIN_CONFIDENCE);
    expect(est.peak).toBeGreaterThan(est.confidence - 1e-9);
  });

  it('should report audio that comes early as a negative lag (sign convention)', () => {
    const rand = rng(2);
    const mouth = syllables(8, rand);
    const late = estimateLag(mouth, delayedEnergy(mouth, 0.2, 3, rand), HZ);
    const early = estimateLag(mouth, delayedEnergy(mouth, -0.2, 3, rand), HZ);
    expect(late.lagSec).toBeGreaterThan(0.19);
    expect(early.lagSec).toBeLessThan(-0.19);
    expect(Math.abs(early.lagSec + 0.2)).toBeLessThanOrEqual(0.01);
  });

  it('should resolve lags between samples by interpolation', () => {
    const rand = rng(3);
    const fine = syllables(8, rand); // 100 Hz
    const audio = delayedEnergy(fine, 0.25, 0, rand);
    // Both tracks at 20 Hz: 0.25 s is 5 samples exactly, 0.27 s is between samples.
    const m20 = resample(fine, HZ, 20);
    const est = estimateLag(m20, resample(audio, HZ, 20), 20);
    expect(Math.abs(est.lagSec - 0.25)).toBeLessThanOrEqual(0.02);
  });

  it('should give low confidence to unrelated tracks (noise, another speaker)', () => {
    for (let seed = 10; seed < 30; seed++) {
      const rand = rng(seed);
      const mouth = syllables(8, rand);
      const other = delayedEnergy(syllables(8, rand), 0, 3, rand);
      const noise = Float64Array.from({ length: 800 }, () => rand());
      expect(estimateLag(mouth, other, HZ).confidence).toBeLessThan(MIN_CONFIDENCE);
      expect(estimateLag(mouth, noise, HZ).confidence).toBeLessThan(MIN_CONFIDENCE);
    }
  });

  it('should give low confidence when the syllables are perfectly regular (every period looks alike)', () => {
    const mouth = Float64Array.from({ length: 800 }, (_, i) => Math.sin((2 * Math.PI * 4 * i) / HZ) ** 2);
    const audio = mouth.map((_, i) => mouth[Math.max(0, i - 10)]);
    expect(estimateLag(mouth, audio, HZ).confidence).toBeLessThan(MIN_CONFIDENCE);
  });

  it('should search around centerSec, so a lag beyond MAX_LAG_SEC from 0 is still found', () => {
    const rand = rng(4);
    const mouth = syllables(10, rand);
    const audio = delayedEnergy(mouth, 0.7, 2, rand);
    expect(0.7).toBeGreaterThan(MAX_LAG_SEC);
    const est = estimateLag(mouth, audio, HZ, { centerSec: 0.2 });
    expect(Math.abs(est.lagSec - 0.7)).toBeLessThanOrEqual(0.01);
    const centred = estimateLag(mouth, audio, HZ);
    expect(centred.lagSec).toBeLessThanOrEqual(MAX_LAG_SEC + 1e-9);
  });

  it('should return zero confidence for empty or constant tracks instead of NaN', () => {
    expect(estimateLag([], [], HZ)).toEqual({ lagSec: expect.any(Number), confidence: 0, peak: 0 });
    const flat = new Float64Array(500).fill(1);
    const est = estimateLag(flat, flat, HZ);
    expect(est.confidence).toBe(0);
    expect(Number.isFinite(est.lagSec)).toBe(true);
  });
});

describe('floorEnvelope', () => {
  it('should clamp pauses to one level below the loud part, leaving speech untouched', () => {
    const env = [-80, -80, -60, -20, -22, -25, -21, -70, -20, -23];
    const out = floorEnvelope(env, 25);
    expect(Array.from(out)).toEqual([-45, -45, -45, -20, -22, -25, -21, -45, -20, -23]);
    expect(env[0]).toBe(-80); // a copy, not in place
  });
});

describe('resample', () => {
  it('should keep the time axis: sample i of the output is at i / toHz seconds', () => {
    const ramp = Float64Array.from({ length: 26 }, (_, i) => i / 25); // value = time, 25 Hz
    const out = resample(ramp, 25, 100);
    expect(out.length).toBe(101);
    expect(out[37]).toBeCloseTo(0.37, 10);
  });
});
