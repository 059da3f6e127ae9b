/**
 * @module analytics/delivery
 * Coaching numbers of a talk (pitch, loudness, repetitions, pace over time, eye contact,
 * gestures): the `delivery` extension of the analysis result. Definitions: docs/delivery.md.
 *
 * @example
 * import { analyzeDelivery } from '../analytics/delivery/index.js';
 * const delivery = analyzeDelivery({ words, speech_segments, prosody, visual });
 */
export { analyzeDelivery, type DeliveryInput } from './analyze';
export { loudnessDelivery, QUIET_BELOW_DB } from './loudness';
export { paceDelivery, PACE_BAND_WPM } from './pace';
export { pitchDelivery } from './pitch';
export { eyeContact, gestureShares } from './presence';
export { detectRepetitions } from './repetitions';
