/**
 * @module analytics/visual/emotion
 * The per-frame emotion label from the engine's emotion scores.
 */
import type { FrameObservation } from '../../contract/media.js';

/** Below this top score the face is labelled `neutral` (the engine is guessing). */
export const EMOTION_MIN_SCORE = 0.3;

/**
 * Top emotion label, lower-cased (@vladmandic/human: angry, disgust, fear, happy, sad, surprise,
 * neutral); `neutral` when the top score is below {@link EMOTION_MIN_SCORE}; `unknown` when there
 * is no face or no scores.
 */
export function topEmotion(face: FrameObservation['face']): string {
  const scores = (face?.emotion ?? []).filter(
    (e) => e && typeof e.emotion === 'string' && e.emotion.length > 0 && Number.isFinite(e.score),
  );
  if (!face || scores.length === 0) return 'unknown';
  const top = scores.reduce((m, e) => (e.score > m.score ? e : m));
  return top.score >= EMOTION_MIN_SCORE ? top.emotion.toLowerCase() : 'neutral';
}
