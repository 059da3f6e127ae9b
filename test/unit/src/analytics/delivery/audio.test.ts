/**
 * Pitch and loudness of `delivery` on real speech transformed by ffmpeg with a known answer:
 * the same recording pitch-shifted by +5 semitones, and made 12 dB quieter in one stretch.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loudnessDelivery } from '../../../../../src/analytics/delivery/loudness';
import { pitchDelivery } from '../../../../../src/analytics/delivery/pitch';
import { computeProsody } from '../../../../../src/analytics/speech/prosody';
import { MEDIA_DIR } from '../../../../support/jfk';

/** Mono 16 kHz float PCM of `file` after the ffmpeg audio filter `filter`. */
function decode(file: string, filter?: string): Float32Array {
  const args = ['-v', 'error', '-i', file, ...(filter ? ['-af', filter] : [])];
  const out = execFileSync('ffmpeg', [...args, '-ac', '1', '-ar', '16000', '-f', 'f32le', '-'], {
    maxBuffer: 64 << 20,
  });
  return new Float32Array(out.buffer, out.byteOffset, out.byteLength / 4);
}
const track = (file: string, filter?: string) => computeProsody(decode(file, filter), 16000);
const semitones = (a: number, b: number) => 12 * Math.log2(b / a);

const SPEECH = ['jfk.wav', 'librivox_sns_0870.wav', 'librivox_sns_0920.wav'].map((f) =>
  join(MEDIA_DIR, 'speech', f),
);

describe('delivery pitch on pitch-shifted speech', () => {
  // rubberband keeps the duration and formants move with the pitch: a plain +5 st transposition.
  const shift = `rubberband=pitch=${2 ** (5 / 12)}`;
  it.each(SPEECH)('should read +5 ± 0.5 semitones of median pitch: %s', (file) => {
    const base = pitchDelivery(track(file));
    const up = pitchDelivery(track(file, shift));
    expect(base.median_hz).not.toBeNull();
    expect(semitones(base.median_hz!, up.median_hz!)).toBeGreaterThan(4.5);
    expect(semitones(base.median_hz!, up.median_hz!)).toBeLessThan(5.5);
    // Variation and range are in semitones: a transposition leaves them nearly unchanged.
    expect(Math.abs(up.variation_st! - base.variation_st!)).toBeLessThan(0.5);
    expect(base.monotone).toBe(base.variation_st! < base.monotone_below_st);
  });
});

describe('delivery loudness on speech made quieter in one stretch', () => {
  const jfk = SPEECH[0];
  // In jfk.wav 4–7 s holds the end of "ask not", a pause, and "what your country can do for you"
  // (≈ 5.35–6.9 s): the quiet stretch must lie inside 4–7 s and cover that phrase.
  it('should report the stretch made 12 dB quieter (4–7 s) as quiet at its times, about 12 dB down', () => {
    const quiet = loudnessDelivery(track(jfk, "volume=enable='between(t,4,7)':volume=-12dB"));
    expect(quiet.quiet_stretches).toHaveLength(1);
    const [s] = quiet.quiet_stretches;
    expect(s.start).toBeGreaterThan(3.7);
    expect(s.start).toBeLessThan(5.5);
    expect(s.end).toBeGreaterThan(6.7);
    expect(s.end).toBeLessThan(7.3);
    expect(s.level_db).toBeLessThan(-9);
    expect(s.level_db).toBeGreaterThan(-15);
  });
  it('should find no quiet stretch in the untouched recording', () => {
    const plain = loudnessDelivery(track(jfk));
    expect(plain.quiet_stretches).toEqual([]);
    expect(plain.variation_db).toBeGreaterThan(1);
    // A uniform gain change moves the level, not its variation.
    const softer = loudnessDelivery(track(jfk, 'volume=-6dB'));
    expect(softer.level_dbfs! - plain.level_dbfs!).toBeCloseTo(-6, 0);
    expect(Math.abs(softer.variation_db! - plain.variation_db!)).toBeLessThan(0.3);
  });
});
