import { describe, expect, it } from 'vitest';
import {
  inferenceScales,
  PIPER_NOISE_SCALE,
  PIPER_NOISE_W,
  toPcm16,
} from '../../../../../../containers/media/engines/tts/piper.js';

const voice = { inference: { noise_scale: 0.667, length_scale: 1, noise_w: 0.8 } };

describe('inferenceScales', () => {
  it("should sample less noise than the voice's own by default (bench/tts: clearer round trip)", () => {
    expect(inferenceScales(voice, {})).toEqual([PIPER_NOISE_SCALE, 1, PIPER_NOISE_W]);
    expect(PIPER_NOISE_SCALE).toBeLessThan(voice.inference.noise_scale);
    expect(PIPER_NOISE_W).toBeLessThan(voice.inference.noise_w);
  });

  it('should take the options given, and the length scale from the voice', () => {
    expect(inferenceScales(voice, { noiseScale: 0.667, noiseW: 0.8 })).toEqual([0.667, 1, 0.8]);
    expect(inferenceScales({ inference: { ...voice.inference, length_scale: 1.2 } }, {})[1]).toBe(1.2);
    expect(inferenceScales(voice, { lengthScale: 0.9 })[1]).toBe(0.9);
  });
});

describe('toPcm16', () => {
  it('should bring the peak to 0.9 of full scale, with the gain capped at 100×', () => {
    const pcm = toPcm16(new Float32Array([0, 0.25, -0.5]));
    expect(pcm[2]).toBe(-Math.round(0.9 * 32767));
    expect(pcm[1]).toBe(Math.round(0.45 * 32767));
    expect(toPcm16(new Float32Array([0.001, -0.001]))[0]).toBe(Math.round(0.09 * 32767));
  });
});
