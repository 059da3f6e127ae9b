/**
 * @module containers/media/engines/lipsync
 * Lip-sync: A/V offset measurement (mouth opening × speech envelope) for clips without new
 * speech, and the sync.so-compatible adapter. Mouth driving from new speech without that
 * provider is the embedded editor of `engines/mouth`.
 */
export {
  measureAvOffset,
  MOUTH_LEADS_AUDIO_SEC,
  IN_SYNC_LAG_SEC,
  MIN_CONFIDENCE,
  ANALYSIS_FPS,
  type AvOffsetOptions,
  type AvOffsetResult,
} from './av-offset.js';
export {
  estimateLag,
  resample,
  syllableVelocity,
  MAX_LAG_SEC,
  SYLLABLE_BAND_HZ,
  COMPETITOR_GAP_SEC,
  type OffsetEstimate,
  type EstimateLagOptions,
} from './offset.js';
export {
  speechEnvelope,
  floorEnvelope,
  ENVELOPE_HZ,
  VOICE_BAND_HZ,
  F2_BAND_HZ,
  type SpeechEnvelopeOptions,
} from './envelope.js';
export { syncLipSync, SyncApiError, SYNC_MODEL, type SyncApiOptions } from './sync-api.js';
