/**
 * @module analytics/visual/compact
 * Reduces a full `FrameObservation` (~7 KB of JSON: a 478-point face mesh, 21 landmarks per
 * hand) to a `CompactFrame` of the few numbers the derivations read (~0.5–1 KB). Everything that
 * depends on `VisualOptions` or on the whole clip (keypoint/hand score thresholds, which hand
 * belongs to which wrist, gaze thresholds, head rotation, eye and mouth normalisation) is left
 * to later, so the video section from compact frames equals the one from full frames.
 */
import type {
  CompactFace,
  CompactFrame,
  CompactHand,
  FrameObservation,
  Keypoint,
  VisionFrame,
} from '../../contract/media.js';
import { eyeAspectRatio } from './eyes.js';
import { irisAngles } from './gaze.js';
import { classifyGesture } from './gesture.js';
import { HAND_LANDMARK_COUNT, palmSize } from './hands.js';
import { toVec } from './math.js';
import { mouthMetrics } from './mouth.js';
import { topEmotion } from './emotion.js';

/** The pose keypoints `bodyFrame` reads; eyes, knees and ankles are never used. */
export const POSE_KEYPOINTS_USED = [
  'nose',
  'left_ear',
  'right_ear',
  'left_shoulder',
  'right_shoulder',
  'left_elbow',
  'right_elbow',
  'left_wrist',
  'right_wrist',
  'left_hip',
  'right_hip',
] as const;

/** True for a frame that is already compact (the container's `/vision` sends those). */
export function isCompactFrame(frame: VisionFrame): frame is CompactFrame {
  return (frame as CompactFrame).compact === 1;
}

function compactPose(pose: FrameObservation['pose']): CompactFrame['pose'] {
  if (!pose) return null;
  const keypoints: Record<string, Keypoint> = {};
  for (const name of POSE_KEYPOINTS_USED) {
    const k = pose.keypoints?.[name];
    if (k) keypoints[name] = k;
  }
  return { score: pose.score, keypoints };
}

/** A hand's compact form, or null for a hand no derivation could use (too few landmarks). */
export function compactHand(hand: FrameObservation['hands'][number]): CompactHand | null {
  if (!hand || !Array.isArray(hand.landmarks) || hand.landmarks.length < HAND_LANDMARK_COUNT) return null;
  const points = hand.landmarks.map(toVec).filter((p) => p !== null);
  if (!toVec(hand.landmarks[0]) || points.length === 0) return null;
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  return {
    side: hand.side,
    score: hand.score,
    centre: [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2],
    palm: palmSize(hand.landmarks),
    gesture: classifyGesture(hand.landmarks),
  };
}

function compactFace(face: FrameObservation['face']): CompactFace | null {
  if (!face) return null;
  return {
    score: face.score,
    box: face.box,
    ear: eyeAspectRatio(face.mesh),
    iris: irisAngles(face.mesh),
    rotation: face.rotation ?? null,
    mouth: mouthMetrics(face),
    emotion: topEmotion(face),
  };
}

/**
 * The compact form of a frame; a compact frame is returned as is. Numbers are not rounded, so
 * a JSON round trip (NDJSON from the container, the R2 memo) changes nothing.
 *
 * @example
 * const small = compactFrame(observation); // JSON ≈ 0.5–1 KB instead of ≈ 7 KB
 * frameFeatures(small) // deep-equals frameFeatures(observation)
 */
export function compactFrame(frame: VisionFrame): CompactFrame {
  if (isCompactFrame(frame)) return frame;
  return {
    compact: 1,
    time: frame.time,
    width: frame.width,
    height: frame.height,
    pose: compactPose(frame.pose),
    hands: (frame.hands ?? []).map(compactHand).filter((h) => h !== null),
    face: compactFace(frame.face),
  };
}
