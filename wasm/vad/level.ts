/**
 * @module
 * The gain that brings quiet audio up to the level Silero VAD hears speech at. Silero's
 * probabilities fall with the level: JFK's inaugural clip (../shared/media/speech/jfk.wav) at
 * 6 dB below its recorded level loses "ask" to the VAD, at 20 dB below "my fellow Americans,
 * ask not", while Whisper still writes every word of the quieter audio once the VAD gives it
 * the speech (docs/benchmarks.md, "Quiet recordings"). Only the VAD's input is scaled: the
 * stored audio, and so every level the analysis reports, is left as recorded.
 */

/** Samples per level frame (32 ms at 16 kHz, Silero v5's frame). */
const FRAME_SAMPLES = 512;
/** The loud end of the audio's frames: the 99th percentile of their RMS levels. */
const LOUD_PERCENTILE = 0.99;
/** Where the loud end of the VAD's input is brought to, dBFS. */
export const VAD_SPEECH_LEVEL_DBFS = -10;
/** At most this much gain, dB: beyond it the loud end is the recording's noise, not speech. */
export const VAD_MAX_GAIN_DB = 30;
/** Below this the audio is (digital) silence: it is left as it is. */
const SILENCE_DBFS = -80;
/** Full scale of signed 16-bit samples. */
export const INT16_FULL_SCALE = 32_768;

/**
 * The level of the loud end of `pcm` (s16 samples, or floats in [-1, 1]) in dBFS: the 99th
 * percentile of its 32 ms frames' RMS levels, −Infinity for no audio or digital silence.
 */
export function loudLevelDbfs(pcm: Int16Array | Float32Array): number {
  const frames = Math.floor(pcm.length / FRAME_SAMPLES);
  if (frames === 0) return -Infinity;
  const scale = pcm instanceof Int16Array ? 1 / INT16_FULL_SCALE : 1;
  const levels = new Float64Array(frames);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let i = f * FRAME_SAMPLES; i < (f + 1) * FRAME_SAMPLES; i++) sum += (pcm[i] * scale) ** 2;
    levels[f] = sum / FRAME_SAMPLES;
  }
  levels.sort();
  const meanSquare = levels[Math.min(frames - 1, Math.floor(LOUD_PERCENTILE * frames))];
  return meanSquare > 0 ? 10 * Math.log10(meanSquare) : -Infinity;
}

/** A loud end below this is past what the gain makes up for: quieter speech may be missed, dBFS. */
export const TOO_QUIET_DBFS = VAD_SPEECH_LEVEL_DBFS - VAD_MAX_GAIN_DB;

/** Whether audio whose loud end is `levelDbfs` is quieter than the VAD's gain makes up for (silence is not). */
export const isTooQuietForVad = (levelDbfs: number): boolean =>
  levelDbfs > SILENCE_DBFS && levelDbfs < TOO_QUIET_DBFS;

/**
 * The factor to scale `pcm` by before the VAD: 1 when its loud end is at or above
 * `VAD_SPEECH_LEVEL_DBFS` or is silence, otherwise what brings it there, at most
 * `VAD_MAX_GAIN_DB`.
 */
export function vadInputGain(pcm: Int16Array | Float32Array): number {
  const level = loudLevelDbfs(pcm);
  if (!(level > SILENCE_DBFS) || level >= VAD_SPEECH_LEVEL_DBFS) return 1;
  return 10 ** (Math.min(VAD_SPEECH_LEVEL_DBFS - level, VAD_MAX_GAIN_DB) / 20);
}
