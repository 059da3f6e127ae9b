/**
 * @module
 * Edge voice activity detection: Silero VAD v5 on onnxruntime-web (wasm, one thread).
 */
export { detectSpeech, type DetectSpeechOptions } from './detect-speech.js';
export {
  speechSegmentsFromProbabilities,
  DEFAULT_SEGMENT_OPTIONS,
  type SegmentOptions,
  type SpeechSegment,
} from './segments.js';
export {
  speechProbabilities,
  getSileroSession,
  registerSileroModel,
  sileroFrameSamples,
  SILERO_SAMPLE_RATE_HZ,
  type SileroModel,
  type SpeechProbabilityOptions,
} from './silero.js';
export { planBatches, type BatchPlanOptions, type ChunkRow } from './batch-plan.js';
export {
  isTooQuietForVad,
  loudLevelDbfs,
  TOO_QUIET_DBFS,
  VAD_MAX_GAIN_DB,
  VAD_SPEECH_LEVEL_DBFS,
  vadInputGain,
} from './level.js';
