import { describe, expect, it } from 'vitest';
import {
  clearerMix,
  LoudEndMeter,
  mayHaveCancelled,
  SIDE_MIX_MARGIN_DB,
} from '../../../../../src/pipeline/steps/audio-mix.js';
import { loudLevelDbfs, TOO_QUIET_DBFS } from '../../../../../wasm/vad/level.js';

/** A tone of `amplitude` (of full scale) for `seconds` at 16 kHz. */
const tone = (seconds: number, amplitude: number) =>
  Int16Array.from({ length: seconds * 16_000 }, (_, i) => Math.round(amplitude * 32_767 * Math.sin(i / 7)));

const bytesOf = (pcm: Int16Array) => new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength);

describe('LoudEndMeter', () => {
  it("should measure the loudest window's loud end, however the bytes are chunked", () => {
    // Three 2 s windows: quiet, loud, quiet; chunks of odd sizes split samples between them.
    const pcm = new Int16Array(6 * 16_000);
    pcm.set(tone(2, 0.01), 0);
    pcm.set(tone(2, 0.5), 2 * 16_000);
    pcm.set(tone(2, 0.01), 4 * 16_000);
    const bytes = bytesOf(pcm);
    const meter = new LoudEndMeter(2 * 16_000);
    for (let at = 0, size = 1; at < bytes.length; at += size, size = (size * 7 + 3) % 5001)
      meter.push(bytes.subarray(at, at + size));
    expect(meter.loudEndDbfs()).toBeCloseTo(loudLevelDbfs(pcm.subarray(2 * 16_000, 4 * 16_000)), 9);
  });

  it('should measure a last window shorter than the others, and nothing as -Infinity', () => {
    const meter = new LoudEndMeter(16_000);
    meter.push(bytesOf(new Int16Array(16_000)));
    meter.push(bytesOf(tone(0.5, 0.1)));
    expect(meter.loudEndDbfs()).toBeCloseTo(loudLevelDbfs(tone(0.5, 0.1)), 9);
    expect(new LoudEndMeter(16_000).loudEndDbfs()).toBe(-Infinity);
  });
});

describe('the mix of a stereo file', () => {
  it('should try the side mix only for stereo audio whose mid mix is too quiet for speech', () => {
    expect(mayHaveCancelled(2, -Infinity)).toBe(true); // cancelled to digital silence
    expect(mayHaveCancelled(2, TOO_QUIET_DBFS - 5)).toBe(true);
    expect(mayHaveCancelled(6, TOO_QUIET_DBFS - 5)).toBe(true);
    expect(mayHaveCancelled(2, -20)).toBe(false);
    expect(mayHaveCancelled(1, -Infinity)).toBe(false);
  });

  it('should keep the side mix only when it is clearly louder', () => {
    expect(clearerMix(-Infinity, -15)).toBe('side');
    expect(clearerMix(-60, -60 + SIDE_MIX_MARGIN_DB)).toBe('side');
    expect(clearerMix(-60, -55)).toBe('mid'); // a quiet recording, not a cancelled one
    expect(clearerMix(-Infinity, -Infinity)).toBe('mid'); // silence either way
  });
});
