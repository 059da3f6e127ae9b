/**
 * @module
 * `detectSpeech`: where in 16 kHz mono audio someone is speaking, with Silero VAD v5.
 */
import type { BatchPlanOptions } from './batch-plan.js';
import { vadInputGain } from './level.js';
import { speechSegmentsFromProbabilities, type SegmentOptions, type SpeechSegment } from './segments.js';
import {
  SILERO_SAMPLE_RATE_HZ,
  sileroFrameSamples,
  speechProbabilities,
  type SileroModel,
} from './silero.js';

export interface DetectSpeechOptions extends SegmentOptions {
  /** Sample rate of `pcm`. Only 16000 is supported (resample with `extractPcm16k`). Default 16000. */
  sampleRate?: typeof SILERO_SAMPLE_RATE_HZ;
  /**
   * Run long audio as up to this many chunks side by side: ~2× faster, slightly different
   * segments (see batch-plan.ts). Default 1 (sequential, exact).
   */
  maxBatch?: BatchPlanOptions['maxBatch'];
  /**
   * `'v5'` (32 ms frames) or `'legacy'` (Silero v4, 96 ms frames, several times less CPU;
   * see silero.ts). Default `'v5'`.
   */
  model?: SileroModel;
  /**
   * Bring quiet audio up to the level Silero hears speech at before detecting (`vadInputGain`,
   * level.ts; the segments' times are unchanged). Default true.
   */
  normalizeLevel?: boolean;
}

/**
 * Finds the speech segments (seconds) of mono 16 kHz audio. `Int16Array` input is read as
 * s16 PCM; `Float32Array` input as floats in [-1, 1]. Thresholds and durations default to
 * Silero's (`threshold` 0.5, `minSilenceMs` 100, `padMs` 30) but for `minSpeechMs` 0 (segments.ts).
 *
 * @example
 * const { pcm } = await extractPcm16k(bytes);
 * const segments = await detectSpeech(pcm, { minSilenceMs: 300 });
 * // → [{ start: 0.29, end: 2.4 }, …]
 */
export async function detectSpeech(
  pcm: Int16Array | Float32Array,
  options: DetectSpeechOptions = {},
): Promise<SpeechSegment[]> {
  const {
    sampleRate = SILERO_SAMPLE_RATE_HZ,
    maxBatch = 1,
    model = 'v5',
    normalizeLevel = true,
    ...segmentOptions
  } = options;
  if (sampleRate !== SILERO_SAMPLE_RATE_HZ) {
    throw new RangeError(`options.sampleRate must be ${SILERO_SAMPLE_RATE_HZ}, got ${sampleRate}`);
  }
  if (pcm.length === 0) return [];
  const gain = normalizeLevel ? vadInputGain(pcm) : 1;
  const probabilities = await speechProbabilities(pcm, { maxBatch, model, gain });
  return speechSegmentsFromProbabilities(
    probabilities,
    sileroFrameSamples(model) / SILERO_SAMPLE_RATE_HZ,
    pcm.length / SILERO_SAMPLE_RATE_HZ,
    segmentOptions,
  );
}
