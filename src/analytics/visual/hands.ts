/**
 * @module analytics/visual/hands
 * Decides which detected hands are real and whose side they are on, by checking them against
 * the body pose, and estimates how far each hand reaches toward the camera (`*_hand_depth`,
 * `*_hand_forward`).
 */
import type { CompactFace, CompactHand, Point } from '../../contract/media.js';
import { type Vec2, dist, toVec } from './math.js';
import type { BodyFrame } from './posture.js';
import type { HandSide } from './types.js';

/** Minimum hand-detector score to use a hand. */
export const DEFAULT_MIN_HAND_SCORE = 0.5;
/** MediaPipe hand landmarks per hand. */
export const HAND_LANDMARK_COUNT = 21;
/**
 * A hand belongs to a pose wrist when the centre of its landmark box is within this many
 * shoulder widths of it. The centre sits about half a hand (≈ 0.3 S) from the wrist, more when
 * the hand reaches toward the camera; measured on the labelled gesture media: ≤ 0.53 S for
 * real hands, while detections on faces or background have no wrist near them.
 */
export const HAND_TO_WRIST_MAX_SW = 0.8;
/**
 * The pose wrist a hand is matched to must be seen with at least this score: the hand detector
 * alone fires on faces, hair and collars in head-and-shoulder shots where no arm is visible.
 */
export const HAND_MIN_WRIST_SCORE = 0.3;
/** Palm length (wrist → middle MCP) in shoulder widths, at the shoulders' distance (≈ 10 cm / 35 cm). */
export const PALM_PER_SHOULDER_WIDTH = 0.28;
/** Palm width (index MCP → pinky MCP) over palm length; lets a palm seen edge-on still give its size. */
export const PALM_WIDTH_PER_LENGTH = 0.8;
/** Forearm (elbow → wrist) in shoulder widths (≈ 25 cm / 35 cm). */
export const FOREARM_PER_SHOULDER_WIDTH = 0.7;
/** `*_hand_forward` when the depth is at least this. */
export const HAND_FORWARD_MIN_DEPTH = 0.3;

/** Why a detected hand was not used (partial outcomes are data, for tests and the bench). */
export type HandRejection = 'low_score' | 'no_body' | 'in_face' | 'no_wrist' | 'far_from_wrist';

/** A detected hand judged against the body: the person's side it belongs to, or why not. */
export type HandVerdict = { side: HandSide; distanceSw: number } | { rejected: HandRejection };

/** The accepted hand on each side, or null when none was seen there. */
export type SideHands = Record<HandSide, CompactHand | null>;

/**
 * Whether a detected hand is consistent with the body pose, and whose side it is on. Accepted
 * only when (in this order) its score is ≥ `minHandScore`; there is a body; its centre is not
 * inside the face box (the detector's commonest false positive); and a pose wrist seen with
 * score ≥ {@link HAND_MIN_WRIST_SCORE} lies within {@link HAND_TO_WRIST_MAX_SW} shoulder widths
 * of its centre. The side is that of the nearest such wrist (the person's own side), whatever
 * the detector said: its handedness flips on mirrored video.
 *
 * @param faceBox `[x, y, w, h]` of the face, or null.
 * @param minHandScore @default DEFAULT_MIN_HAND_SCORE (0.5)
 * @example
 * judgeHand(hand, bodyFrame(pose), face?.box ?? null) // → { side: 'left', distanceSw: 0.2 }
 */
export function judgeHand(
  hand: CompactHand,
  body: BodyFrame | null,
  faceBox: CompactFace['box'] | null,
  minHandScore: number = DEFAULT_MIN_HAND_SCORE,
): HandVerdict {
  if (!(hand.score >= minHandScore)) return { rejected: 'low_score' };
  if (!body) return { rejected: 'no_body' };
  const centre = toVec(hand.centre);
  if (!centre) return { rejected: 'no_wrist' };
  if (Array.isArray(faceBox) && insideBox(centre, faceBox)) return { rejected: 'in_face' };
  let best: { side: HandSide; distanceSw: number } | null = null;
  for (const side of ['left', 'right'] as const) {
    const w = body.wrist[side];
    if (!w || !(w.score >= HAND_MIN_WRIST_SCORE)) continue;
    const d = dist(w, centre) / body.scale;
    if (!best || d < best.distanceSw) best = { side, distanceSw: d };
  }
  if (!best) return { rejected: 'no_wrist' };
  return best.distanceSw <= HAND_TO_WRIST_MAX_SW ? best : { rejected: 'far_from_wrist' };
}

function insideBox(p: Vec2, [x, y, w, h]: CompactFace['box']): boolean {
  return p.x >= x && p.x <= x + w && p.y >= y && p.y <= y + h;
}

/**
 * The accepted hand per side ({@link judgeHand}); when two hands claim one wrist the
 * higher-scoring one wins.
 *
 * @param minHandScore @default DEFAULT_MIN_HAND_SCORE (0.5)
 */
export function assignHands(
  hands: readonly CompactHand[],
  body: BodyFrame | null,
  faceBox: CompactFace['box'] | null,
  minHandScore: number = DEFAULT_MIN_HAND_SCORE,
): SideHands {
  const best: SideHands = { left: null, right: null };
  for (const hand of hands ?? []) {
    if (!hand) continue;
    const verdict = judgeHand(hand, body, faceBox, minHandScore);
    if (!('side' in verdict)) continue;
    const current = best[verdict.side];
    if (!current || hand.score > current.score) best[verdict.side] = hand;
  }
  return best;
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
 * - With an accepted hand (`palm` = its {@link palmSize}): apparent palm size ÷ the palm size
 *   expected at the shoulders' distance, minus 1. Positive = nearer the camera than the
 *   shoulders; negative = farther (or turned away).
 * - Else with elbow and wrist: forearm foreshortening, 1 − seen forearm ÷ expected forearm.
 *   Positive = the forearm points toward (or away from) the camera; negative = longer than expected.
 * - Else 0.
 */
export function handDepth(body: BodyFrame | null, side: HandSide, palm: number | null): number {
  if (!body) return 0;
  if (palm !== null && palm > 0) return palm / (PALM_PER_SHOULDER_WIDTH * body.scale) - 1;
  const w: Vec2 | null = body.wrist[side];
  const e = body.elbow[side];
  if (w && e) return 1 - dist(w, e) / (FOREARM_PER_SHOULDER_WIDTH * body.scale);
  return 0;
}

/** The wrist is seen and its depth is at least {@link HAND_FORWARD_MIN_DEPTH}. */
export function isHandForward(body: BodyFrame | null, side: HandSide, depth: number): boolean {
  return !!body?.wrist[side] && depth >= HAND_FORWARD_MIN_DEPTH;
}
