/**
 * @module analytics/visual
 * Pure visual analytics: per-frame pose, hand, face observations → the result's video section.
 * Definitions of every label and number: ./DEFINITIONS.md.
 *
 * @example
 * import { analyzeVisual } from './analytics/visual/index.js';
 * const section = analyzeVisual(frames, { fillers, pauses, positive, negative });
 */
export { analyzeVisual, mouthBaseline } from './analyze.js';
export type {
  SpeechEvents,
  VisualOptions,
  HandSide,
  HandLevel,
  GestureLabel,
  GazeX,
  GazeY,
  PostureUnit,
} from './types.js';
export {
  bodyFrame,
  handLevel,
  handHeight,
  isRaisedHand,
  isHandHigh,
  isHandsOnHips,
  type BodyFrame,
} from './posture.js';
export {
  assignHands,
  judgeHand,
  handDepth,
  isHandForward,
  palmSize,
  type HandRejection,
  type HandVerdict,
  type SideHands,
} from './hands.js';
export { compactFrame, compactHand, isCompactFrame, POSE_KEYPOINTS_USED } from './compact.js';
export { classifyGesture, fingerExtension, isPinch, type Fingers } from './gesture.js';
export { eyeAspectRatio, normaliseEyeOpenness } from './eyes.js';
export {
  gazeAngles,
  irisAngles,
  gazeDirection,
  gazeDirectionX,
  gazeDirectionY,
  type GazeAngles,
} from './gaze.js';
export { mouthMetrics, smileRatio, type MouthMetrics, type MouthBaseline } from './mouth.js';
export { topEmotion } from './emotion.js';
export { visualWarnings } from './warnings.js';
export { frameFeatures, frameHands, toVisualSample, type FrameFeatures } from './timeline.js';
export { gestureSummary, postureSummary, frameDurations, sampleInterval } from './summary.js';
export { framesInEvents, summarizeFrames, wordSync } from './word-sync.js';
