/**
 * @module containers/media/engines/lipsync
 * Lip-sync: A/V offset measurement (mouth openness × speech envelope) for clips without new
 * speech. Mouth driving from new speech is not implemented yet (see the render report notes).
 */
export { measureAvOffset, MOUTH_LEADS_AUDIO_SEC, type AvOffsetOptions, type AvOffsetResult } from './av-offset.js';
export { estimateLag, resample, MAX_LAG_SEC, type OffsetEstimate } from './offset.js';
export { speechEnvelope, ENVELOPE_HZ } from './envelope.js';
export { createFaceTracker, mouthOpenness, type FaceTracker, type FaceMesh } from './face-track.js';
export { syncLipSync, syncApiFromEnv, SyncApiError, SYNC_MODEL, type SyncApiOptions } from './sync-api.js';
