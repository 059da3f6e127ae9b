import { describe, expect, it } from 'vitest';
import {
  isTooQuietForVad,
  loudLevelDbfs,
  TOO_QUIET_DBFS,
  VAD_MAX_GAIN_DB,
  VAD_SPEECH_LEVEL_DBFS,
  vadInputGain,
} from './level.js';

/** A 440 Hz sine of `seconds` at 16 kHz with peak `amplitude` (of full scale), as s16. */
function sine(seconds: number, amplitude: number): Int16Array {
  return Int16Array.from({ length: seconds * 16_000 }, (_, i) =>
    Math.round(amplitude * 32_767 * Math.sin((2 * Math.PI * 440 * i) / 16_000)),
  );
}
const db = (gain: number) => 20 * Math.log10(gain);

describe('loudLevelDbfs', () => {
  it('should give a full-scale sine its RMS level, −3 dBFS', () => {
    expect(loudLevelDbfs(sine(2, 1))).toBeCloseTo(-3.01, 1);
  });

  it('should read floats in [-1, 1] as s16 samples of the same level', () => {
    const s16 = sine(1, 0.1);
    expect(loudLevelDbfs(Float32Array.from(s16, (v) => v / 32_768))).toBeCloseTo(loudLevelDbfs(s16), 3);
  });

  it('should be the loud end: a sentence in a long silence, not the silence', () => {
    const pcm = new Int16Array(60 * 16_000);
    pcm.set(sine(2, 0.1), 30 * 16_000); // 2 s of 60: above the 99th percentile
    expect(loudLevelDbfs(pcm)).toBeCloseTo(-23.01, 1);
  });

  it('should give −Infinity for digital silence and for less than a frame', () => {
    expect(loudLevelDbfs(new Int16Array(16_000))).toBe(-Infinity);
    expect(loudLevelDbfs(sine(0.01, 1))).toBe(-Infinity);
  });
});

describe('vadInputGain', () => {
  it('should leave audio at or above the VAD level as it is', () => {
    expect(vadInputGain(sine(1, 1))).toBe(1);
    expect(vadInputGain(sine(1, 10 ** ((VAD_SPEECH_LEVEL_DBFS + 3.01) / 20)))).toBe(1);
  });

  it('should bring quieter audio up to the VAD level', () => {
    const pcm = sine(1, 0.05); // −29 dBFS RMS
    expect(db(vadInputGain(pcm))).toBeCloseTo(VAD_SPEECH_LEVEL_DBFS - loudLevelDbfs(pcm), 6);
  });

  it('should raise no more than VAD_MAX_GAIN_DB, and never digital silence', () => {
    expect(db(vadInputGain(sine(1, 0.0005)))).toBeCloseTo(VAD_MAX_GAIN_DB, 6);
    expect(vadInputGain(new Int16Array(16_000))).toBe(1);
    expect(vadInputGain(new Int16Array(0))).toBe(1);
  });
});

describe('isTooQuietForVad', () => {
  it('should be true only between digital silence and what the gain makes up for', () => {
    expect(TOO_QUIET_DBFS).toBe(VAD_SPEECH_LEVEL_DBFS - VAD_MAX_GAIN_DB);
    expect(isTooQuietForVad(TOO_QUIET_DBFS - 8)).toBe(true);
    expect(isTooQuietForVad(TOO_QUIET_DBFS)).toBe(false);
    expect(isTooQuietForVad(-20)).toBe(false);
    expect(isTooQuietForVad(-Infinity)).toBe(false);
    expect(isTooQuietForVad(-90)).toBe(false);
  });
});
