import { describe, expect, it } from 'vitest';
import {
  frameLevels,
  quantileMap,
  targetOpenness,
} from '../../../../../../containers/media/engines/mouth/target.js';

describe('quantileMap', () => {
  it('should map each level to the reference value at the same quantile', () => {
    expect(Array.from(quantileMap([0, 5, 10], [0.3, 0.1, 0.2]))).toEqual([0.1, 0.2, 0.3]);
    // Order is kept, scale is the reference's: a monotone map.
    const out = quantileMap([-60, -20, -40, -30, -10], [0.05, 0.1, 0.2, 0.3, 0.45]);
    expect(Array.from(out)).toEqual([0.05, 0.3, 0.1, 0.2, 0.45]);
  });

  it('should send ties (digital silence) to the most closed value', () => {
    const out = quantileMap([-80, -80, -80, -20, -10], [0.02, 0.1, 0.2, 0.3, 0.4]);
    expect(Array.from(out.slice(0, 3))).toEqual([0.02, 0.02, 0.02]);
    expect(out[4]).toBe(0.4);
  });
});

describe('frameLevels', () => {
  it('should average the envelope over each frame, looking ahead by the lead', () => {
    // 100 Hz envelope: silent (−80) until 0.5 s, loud (−10) after.
    const env = Float64Array.from({ length: 100 }, (_, i) => (i < 50 ? -80 : -10));
    const noLead = frameLevels(env, { fps: 10, frames: 10, envelopeHz: 100 });
    expect(noLead[4]).toBe(-80);
    expect(noLead[5]).toBe(-10);
    // With a 0.1 s lead the mouth opens one 10 fps frame earlier.
    const lead = frameLevels(env, { fps: 10, frames: 10, envelopeHz: 100, leadSec: 0.1 });
    expect(lead[3]).toBe(-80);
    expect(lead[4]).toBe(-10);
    // Past the speech's end: the floor (mouth at rest).
    expect(lead[9]).toBe(-80);
  });
});

describe('targetOpenness', () => {
  it('should close the mouth in silence and open it most at the loudest syllable', () => {
    const env = new Float64Array(200).fill(-80);
    for (let i = 40; i < 60; i++) env[i] = -20; // a syllable at 0.4–0.6 s
    for (let i = 120; i < 140; i++) env[i] = -5; // a louder one at 1.2–1.4 s
    const source = [0.03, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5];
    const t = targetOpenness(env, source, { fps: 10, frames: 20, envelopeHz: 100, smoothFrames: 0 });
    expect(t[0]).toBe(0.03);
    expect(t[19]).toBe(0.03);
    expect(t[4]).toBeGreaterThan(0.1);
    // Ties take their lowest rank: the loudest syllable lands near (not exactly at) the top.
    expect(t[12]).toBeGreaterThan(0.45);
    expect(t[12]).toBeGreaterThan(t[4]);
    // Targets never leave the range the source shows.
    for (const v of t) expect(v >= 0.03 && v <= 0.5).toBe(true);
  });
});
