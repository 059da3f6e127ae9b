/**
 * @module analytics/visual/hands
 * Matches detected hand landmarks to the person's left/right wrist and estimates how far each
 * hand reaches toward the camera (`*_hand_depth`, `*_hand_forward`).
 */
import type { FrameObservation, Point } from '../../contract/media.js';
import { type Vec2, dist, toVec } from './math.js';
import type { BodyFrame } from './posture.js';
import type { HandSide } from './types.js';

/** Minimum hand-detector score to use a hand's landmarks. */
export const DEFAULT_MIN_HAND_SCORE = 0.5;
/** MediaPipe hand landmarks per hand. */
export const HAND_LANDMARK_COUNT = 21;
/** A hand belongs to a pose wrist when its landmark 0 is within this many shoulder widths of it. */
export const HAND_TO_WRIST_MAX_SW = 0.6;
/** Palm length (wrist → middle MCP) in shoulder widths, at the shoulders' distance (≈ 10 cm / 35 cm). */
export const PALM_PER_SHOULDER_WIDTH = 0.28;
/** Palm width (index MCP → pinky MCP) over palm length; lets a palm seen edge-on still give its size. */
export const PALM_WIDTH_PER_LENGTH = 0.8;
/** Forearm (elbow → wrist) in shoulder widths (≈ 25 cm / 35 cm). */
export const FOREARM_PER_SHOULDER_WIDTH = 0.7;
/** `*_hand_forward` when the depth is at least this. */
export const HAND_FORWARD_MIN_DEPTH = 0.3;

/** The landmarks of the hand on each side, or null when that hand was not seen. */
export type SideHands = Record<HandSide, Point[] | null>;

/**
 * Assigns detected hands to the person's sides. A hand goes to the pose wrist it sits on
 * (more reliable than the hand model's handedness, which flips on mirrored video); otherwise to
 * the side the hand model reports; an `unknown` hand with a body goes by which side of the
 * midline it is on (person's left = image right in an unmirrored frame). On a clash the
 * higher-scoring hand wins.
 *
 * @param minHandScore @default DEFAULT_MIN_HAND_SCORE (0.5)
 */
export function assignHands(
  hands: FrameObservation['hands'],
  body: BodyFrame | null,
  minHandScore: number = DEFAULT_MIN_HAND_SCORE,
): SideHands {
  const best: Record<HandSide, { score: number; landmarks: Point[] } | null> = { left: null, right: null };
  for (const hand of hands ?? []) {
    if (!hand || !(hand.score >= minHandScore) || !Array.isArray(hand.landmarks)) continue;
    if (hand.landmarks.length < HAND_LANDMARK_COUNT) continue;
    const root = toVec(hand.landmarks[0]);
    if (!root) continue;
    let side: HandSide | null = null;
    if (body) {
      let bestD = HAND_TO_WRIST_MAX_SW * body.scale;
      for (const s of ['left', 'right'] as const) {
        const w = body.wrist[s];
        if (w && dist(w, root) <= bestD) {
          bestD = dist(w, root);
          side = s;
        }
      }
    }
    if (!side && hand.side !== 'unknown') side = hand.side;
    if (!side && body) side = root.x >= body.midX ? 'left' : 'right';
    if (!side) continue;
    const current = best[side];
    if (!current || hand.score > current.score) best[side] = { score: hand.score, landmarks: hand.landmarks };
  }
  return { left: best.left?.landmarks ?? null, right: best.right?.landmarks ?? null };
}

/** Apparent palm length in px: the larger of its length and its width-implied length. */
export function palmSize(landmarks: Point[]): number {
  const w = toVec(landmarks[0]);
  const m = toVec(landmarks[9]);
  const i = toVec(landmarks[5]);
  const p = toVec(landmarks[17]);
  const length = w && m ? dist(w, m) : 0;
  const width = i && p ? dist(i, p) / PALM_WIDTH_PER_LENGTH : 0;
  return Math.max(length, width);
}

/**
 * How far the hand reaches toward the camera, dimensionless, 0 = in the shoulders' plane.
 * - With hand landmarks: apparent palm size ÷ the palm size expected at the shoulders' distance,
 *   minus 1. Positive = nearer the camera than the shoulders; negative = farther (or turned away).
 * - Else with elbow and wrist: forearm foreshortening, 1 − seen forearm ÷ expected forearm.
 *   Positive = the forearm points toward (or away from) the camera; negative = longer than expected.
 * - Else 0.
 */
export function handDepth(body: BodyFrame | null, side: HandSide, landmarks: Point[] | null): number {
  if (!body) return 0;
  if (landmarks) {
    const palm = palmSize(landmarks);
    if (palm > 0) return palm / (PALM_PER_SHOULDER_WIDTH * body.scale) - 1;
  }
  const w: Vec2 | null = body.wrist[side];
  const e = body.elbow[side];
  if (w && e) return 1 - dist(w, e) / (FOREARM_PER_SHOULDER_WIDTH * body.scale);
  return 0;
}

/** The wrist is seen and its depth is at least {@link HAND_FORWARD_MIN_DEPTH}. */
export function isHandForward(body: BodyFrame | null, side: HandSide, depth: number): boolean {
  return !!body?.wrist[side] && depth >= HAND_FORWARD_MIN_DEPTH;
}
