/**
 * @module analytics/visual/closeup
 * Hands in close-ups: a hand filling much of the picture with no arm of a body pose in view (a
 * demonstration, a product shot, a sign-like gesture). Without a wrist the body-consistency rule
 * (`judgeHand`) cannot vouch for a detection, so a close-up hand must vouch for itself: large in
 * the frame, and at least as near the camera as a face in view. The hand detector's commonest
 * false positives (faces, hair, collars of head-and-shoulder shots) are small beside the face.
 */
import type { CompactFace, CompactHand } from '../../contract/media.js';
import { DEFAULT_MIN_HAND_SCORE, HAND_MIN_WRIST_SCORE, type SideHands } from './hands.js';
import { toVec } from './math.js';
import type { BodyFrame } from './posture.js';
import type { HandSide } from './types.js';

/**
 * A close-up hand's palm (`palmSize`, wrist → middle knuckle) spans at least this fraction of the
 * frame's shorter side. A palm is ≈ 10 cm: 0.2 means the frame's short side shows ≤ 50 cm, a
 * hand-and-forearm shot. Raw detections on talking heads without hands measured ≤ 0.16
 * (retalking_face2, 10 frames); hands in close-ups 0.27–0.37.
 */
export const CLOSEUP_MIN_PALM_FRACTION = 0.2;
/**
 * With a face in view, a close-up hand's palm is at least this fraction of the face box's width:
 * a palm (≈ 10 cm) at the face's distance is ≈ 0.65 face widths (≈ 15 cm), nearer the camera more.
 */
export const CLOSEUP_MIN_PALM_PER_FACE_WIDTH = 0.5;

export type CloseupRejection = 'low_score' | 'small' | 'in_face' | 'smaller_than_face';
export type CloseupVerdict = { accepted: true } | { rejected: CloseupRejection };

/** True when the body shows a wrist a hand could be attached to (then `judgeHand` decides). */
export function hasVisibleWrist(body: BodyFrame | null): boolean {
  return (
    !!body && (['left', 'right'] as const).some((s) => (body.wrist[s]?.score ?? 0) >= HAND_MIN_WRIST_SCORE)
  );
}

/**
 * Whether a detected hand counts as a close-up hand: score ≥ `minHandScore`, palm ≥
 * {@link CLOSEUP_MIN_PALM_FRACTION} of the frame's shorter side, centre not inside the face box,
 * and palm ≥ {@link CLOSEUP_MIN_PALM_PER_FACE_WIDTH} face widths when a face is in view.
 *
 * @example
 * judgeCloseupHand(hand, { width: 640, height: 738 }, null) // → { accepted: true } for a palm of 218 px
 */
export function judgeCloseupHand(
  hand: CompactHand,
  frame: { width: number; height: number },
  faceBox: CompactFace['box'] | null,
  minHandScore: number = DEFAULT_MIN_HAND_SCORE,
): CloseupVerdict {
  if (!(hand.score >= minHandScore)) return { rejected: 'low_score' };
  const short = Math.min(frame.width, frame.height);
  if (!(short > 0) || !(hand.palm >= CLOSEUP_MIN_PALM_FRACTION * short)) return { rejected: 'small' };
  if (Array.isArray(faceBox)) {
    const c = toVec(hand.centre);
    const [x, y, w, h] = faceBox;
    if (c && c.x >= x && c.x <= x + w && c.y >= y && c.y <= y + h) return { rejected: 'in_face' };
    if (!(hand.palm >= CLOSEUP_MIN_PALM_PER_FACE_WIDTH * w)) return { rejected: 'smaller_than_face' };
  }
  return { accepted: true };
}

/**
 * The accepted close-up hands per side. Without a body the side is the detector's own label
 * (mirrored video flips it); a hand with no label, or whose side is taken by a better hand,
 * takes the free side, the right first (most people gesture with their right hand).
 */
export function closeupHands(
  hands: readonly CompactHand[],
  frame: { width: number; height: number },
  faceBox: CompactFace['box'] | null,
  minHandScore: number = DEFAULT_MIN_HAND_SCORE,
): SideHands {
  const out: SideHands = { left: null, right: null };
  const accepted = (hands ?? [])
    .filter((h) => h && 'accepted' in judgeCloseupHand(h, frame, faceBox, minHandScore))
    .sort((a, b) => b.score - a.score);
  for (const hand of accepted) {
    const free: HandSide[] = (['right', 'left'] as const).filter((s) => out[s] === null);
    if (free.length === 0) break;
    const side = hand.side !== 'unknown' && free.includes(hand.side) ? hand.side : free[0];
    out[side] = hand;
  }
  return out;
}
