import { describe, expect, it } from 'vitest';
import { computeProsody, summarizeProsody } from '../../../../../src/analytics/speech/prosody';

const SR = 16000;
/** A tone whose frequency moves from f0 to f1 Hz (geometrically) over `seconds`. */
function tone(f0: number, f1: number, seconds: number, amp = 0.5, sampleRate = SR): Float32Array {
  const x = new Float32Array(Math.round(seconds * sampleRate));
  let phase = 0;
  for (let i = 0; i < x.length; i++) {
    const f = f0 * (f1 / f0) ** (i / x.length);
    phase += (2 * Math.PI * f) / sampleRate;
    x[i] = amp * Math.sin(phase);
  }
  return x;
}
const voiced = (p: Array<number | null>) => p.filter((v): v is number => v !== null);

describe('computeProsody pitch', () => {
  it('should find ~200 Hz in a 200 Hz sine', () => {
    const track = computeProsody(tone(200, 200, 1), SR);
    expect(track.frame_sec).toBe(0.01);
    expect(track.pitch_hz).toHaveLength(100);
    const v = voiced(track.pitch_hz);
    expect(v.length).toBeGreaterThan(90);
    for (const hz of v) (expect(hz).toBeGreaterThan(198), expect(hz).toBeLessThan(202));
  });
  it('should track a harmonic-rich 120 Hz voice-like tone at 44.1 kHz without octave errors', () => {
    const sr = 44100;
    const x = new Float32Array(2 * sr);
    for (let i = 0; i < x.length; i++)
      for (let h = 1; h <= 12; h++) x[i] += (0.1 / h) * Math.sin((2 * Math.PI * 120 * h * i) / sr);
    expect(summarizeProsody(computeProsody(x, sr)).median_pitch_hz).toBeCloseTo(120, 0);
  });
  it('should give null pitch and the energy floor for silence', () => {
    const track = computeProsody(new Float32Array(SR), SR);
    expect(track.pitch_hz.every((p) => p === null)).toBe(true);
    expect(track.energy_db.every((e) => e === -100)).toBe(true);
  });
  it('should give no pitch for white noise', () => {
    let seed = 1;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5;
    const noise = Float32Array.from({ length: SR }, () => 0.5 * rnd());
    expect(voiced(computeProsody(noise, SR).pitch_hz).length).toBeLessThan(10);
  });
  it('should process 60 s of 16 kHz audio in well under a second of CPU', () => {
    const x = tone(110, 220, 60, 0.3);
    const before = process.cpuUsage();
    computeProsody(x, SR);
    const { user } = process.cpuUsage(before);
    expect(user / 1000).toBeLessThan(1000);
  });
});

describe('computeProsody energy', () => {
  it('should read a full-scale sine at −3.01 dBFS and a half-scale one 6 dB lower', () => {
    expect(computeProsody(tone(200, 200, 0.2, 1), SR).energy_db[10]).toBeCloseTo(-3.01, 1);
    expect(computeProsody(tone(200, 200, 0.2, 0.5), SR).energy_db[10]).toBeCloseTo(-9.03, 1);
  });
});

describe('summarizeProsody', () => {
  it('should show more pitch variation for a gliding tone than a flat one', () => {
    const flat = summarizeProsody(computeProsody(tone(200, 200, 3), SR));
    const glide = summarizeProsody(computeProsody(tone(150, 300, 3), SR));
    expect(flat.pitch_std_st).toBeLessThan(0.1);
    // A one-octave linear-in-semitones glide has std 12/√12 ≈ 3.46 st.
    expect(glide.pitch_std_st).toBeGreaterThan(3);
    expect(glide.pitch_std_st).toBeLessThan(4);
  });
  it('should give null statistics with under a second of voicing', () => {
    const s = summarizeProsody(computeProsody(tone(200, 200, 0.5), SR));
    expect(s).toMatchObject({ median_pitch_hz: null, pitch_std_st: null });
  });
});
