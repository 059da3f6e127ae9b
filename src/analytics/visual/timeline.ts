/**
 * @module analytics/visual/timeline
 * One `merged_visual_time_series` element per frame, in two steps: {@link frameFeatures} derives
 * everything a frame tells on its own; {@link toVisualSample} adds what needs the whole clip (the
 * person's open-eye EAR and neutral mouth) and makes the numbers JSON- and zod-safe.
 */
import type { CompactFrame, VisionFrame } from '../../contract/media.js';
import type { VisualSample } from '../../contract/result.js';
import { closeupHands, hasVisibleWrist } from './closeup.js';
import { compactFrame } from './compact.js';
import {
  DEFAULT_GAZE_CENTER_DEG,
  gazeAngles,
  gazeDirection,
  gazeDirectionX,
  gazeDirectionY,
} from './gaze.js';
import { DEFAULT_MIN_HAND_SCORE, type SideHands, assignHands, handDepth, isHandForward } from './hands.js';
import { finite } from './math.js';
import { type MouthBaseline, type MouthMetrics, smileRatio } from './mouth.js';
import {
  type BodyFrame,
  DEFAULT_MIN_KEYPOINT_SCORE,
  bodyFrame,
  handHeight,
  handLevel,
  isHandHigh,
  isHandsOnHips,
  isRaisedHand,
} from './posture.js';
import type { GazeX, GazeY, GestureLabel, HandLevel, VisualOptions } from './types.js';

/** Everything one frame yields by itself, before clip-level normalisation. */
export interface FrameFeatures {
  time: number;
  pose_detected: boolean;
  raised_hand: boolean;
  hands_on_hips: boolean;
  left_hand_level_label: HandLevel;
  right_hand_level_label: HandLevel;
  left_hand_height: number;
  right_hand_height: number;
  left_hand_depth: number;
  right_hand_depth: number;
  left_hand_high: boolean;
  right_hand_high: boolean;
  left_hand_forward: boolean;
  right_hand_forward: boolean;
  gesture_left: GestureLabel;
  gesture_right: GestureLabel;
  /** Raw eye aspect ratio; null without a measurable eye. */
  ear: number | null;
  face_detected: boolean;
  gaze_direction: string | null;
  gaze_direction_x: GazeX;
  gaze_direction_y: GazeY;
  gaze_angle_x: number;
  gaze_angle_y: number;
  mouth: MouthMetrics | null;
  emotion: string;
}

/**
 * With a wrist in view, the hands consistent with the body (`judgeHand`); without one, the
 * close-up hands (`judgeCloseupHand`).
 */
function acceptedHands(frame: CompactFrame, body: BodyFrame | null, minHandScore: number): SideHands {
  const faceBox = frame.face?.box ?? null;
  return hasVisibleWrist(body)
    ? assignHands(frame.hands, body, faceBox, minHandScore)
    : closeupHands(frame.hands, frame, faceBox, minHandScore);
}

/**
 * The hands of a frame that pass the body-consistency rule (`judgeHand`), per side: what the
 * gesture and depth fields are computed from. Tests and the bench use it to count real hands.
 *
 * @param options `minKeypointScore` and `minHandScore` as in {@link frameFeatures}.
 */
export function frameHands(input: VisionFrame, options: VisualOptions = {}): SideHands {
  const { minKeypointScore = DEFAULT_MIN_KEYPOINT_SCORE, minHandScore = DEFAULT_MIN_HAND_SCORE } = options;
  const frame = compactFrame(input);
  return acceptedHands(frame, bodyFrame(frame.pose, minKeypointScore), minHandScore);
}

/**
 * Derives the per-frame features from a full or compact frame (the same result either way: a
 * full frame is compacted first); a frame with no person gives the "nothing seen" values.
 */
export function frameFeatures(input: VisionFrame, options: VisualOptions = {}): FrameFeatures {
  const {
    minKeypointScore = DEFAULT_MIN_KEYPOINT_SCORE,
    minHandScore = DEFAULT_MIN_HAND_SCORE,
    gazeCenterXDeg = DEFAULT_GAZE_CENTER_DEG,
    gazeCenterYDeg = DEFAULT_GAZE_CENTER_DEG,
    useHeadRotation = true,
  } = options;
  const frame = compactFrame(input);
  const body = bodyFrame(frame.pose, minKeypointScore);
  const face = frame.face ?? null;
  const hands = acceptedHands(frame, body, minHandScore);
  const leftDepth = handDepth(body, 'left', hands.left?.palm ?? null);
  const rightDepth = handDepth(body, 'right', hands.right?.palm ?? null);
  const gaze = gazeAngles(face, useHeadRotation);
  const gx = gaze.measured ? gazeDirectionX(gaze.x, gazeCenterXDeg) : 'center';
  const gy = gaze.measured ? gazeDirectionY(gaze.y, gazeCenterYDeg) : 'center';
  return {
    time: frame.time,
    pose_detected: body !== null,
    raised_hand: isRaisedHand(body),
    hands_on_hips: isHandsOnHips(body),
    left_hand_level_label: handLevel(body, 'left'),
    right_hand_level_label: handLevel(body, 'right'),
    left_hand_height: handHeight(body, 'left'),
    right_hand_height: handHeight(body, 'right'),
    left_hand_depth: leftDepth,
    right_hand_depth: rightDepth,
    left_hand_high: isHandHigh(body, 'left'),
    right_hand_high: isHandHigh(body, 'right'),
    left_hand_forward: isHandForward(body, 'left', leftDepth),
    right_hand_forward: isHandForward(body, 'right', rightDepth),
    gesture_left: hands.left?.gesture ?? 'none',
    gesture_right: hands.right?.gesture ?? 'none',
    ear: face?.ear ?? null,
    face_detected: face !== null,
    gaze_direction: gaze.measured ? gazeDirection(gx, gy) : null,
    gaze_direction_x: gx,
    gaze_direction_y: gy,
    gaze_angle_x: gaze.measured ? gaze.x : 0,
    gaze_angle_y: gaze.measured ? gaze.y : 0,
    mouth: face?.mouth ?? null,
    emotion: face ? face.emotion : 'unknown',
  };
}

/** The output element from a frame's features, its normalised eye openness and the mouth baseline. */
export function toVisualSample(
  f: FrameFeatures,
  eyeOpenness: number,
  mouthBaseline: MouthBaseline,
): VisualSample {
  return {
    time: finite(f.time, 3),
    pose_detected: f.pose_detected,
    raised_hand: f.raised_hand,
    hands_on_hips: f.hands_on_hips,
    left_hand_level_label: f.left_hand_level_label,
    right_hand_level_label: f.right_hand_level_label,
    left_hand_height: finite(f.left_hand_height),
    right_hand_height: finite(f.right_hand_height),
    left_hand_depth: finite(f.left_hand_depth),
    right_hand_depth: finite(f.right_hand_depth),
    gesture_left: f.gesture_left,
    gesture_right: f.gesture_right,
    eye_openness: Math.min(1, Math.max(0, finite(eyeOpenness))),
    gaze_direction: f.gaze_direction,
    emotion: f.emotion,
    gaze_direction_x: f.gaze_direction_x,
    gaze_direction_y: f.gaze_direction_y,
    gaze_angle_x: finite(f.gaze_angle_x, 2),
    gaze_angle_y: finite(f.gaze_angle_y, 2),
    mouth_width: finite(f.mouth?.width ?? 0),
    mouth_open: finite(f.mouth?.open ?? 0),
    smile_ratio: finite(smileRatio(f.mouth, mouthBaseline)),
  };
}
