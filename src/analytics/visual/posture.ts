/**
 * @module analytics/visual/posture
 * Body reference frame from MoveNet keypoints, and the posture labels built on it: hand level,
 * hand height, raised hand, hand high, hands on hips. All distances are in shoulder-width units
 * (`scale`), so they do not depend on how far the person stands from the camera.
 */
import type { FrameObservation, Keypoint } from '../../contract/media.js';
import { type Vec2, dist, mean } from './math.js';
import type { HandLevel, HandSide } from './types.js';

/** Minimum MoveNet keypoint score to trust a keypoint (MoveNet's own demos use 0.3). */
export const DEFAULT_MIN_KEYPOINT_SCORE = 0.3;
/** Minimum overall pose score; below it the frame counts as "no person". */
export const MIN_POSE_SCORE = 0.1;
/** Shoulder line to hip line, in shoulder widths (MoveNet joint centres, adult average ≈ 1.3). */
export const TORSO_PER_SHOULDER_WIDTH = 1.3;
/** Nose height above the shoulder line, in shoulder widths, used when the nose is not seen. */
export const NOSE_ABOVE_SHOULDERS_SW = 0.6;
/** Head width (ear to ear) in shoulder widths, the scale of last resort for a head-and-shoulder crop. */
export const EARS_PER_SHOULDER_WIDTH = 0.45;
/** Level bands as fractions of the shoulder→hip distance (0 = shoulder line, 1 = hip line). */
export const SHOULDER_BAND_END = 0.2;
export const CHEST_BAND_END = 0.65;
export const WAIST_BAND_END = 1.15;
/** A raised hand must be seen with at least this wrist score: a false raise is conspicuous. */
export const RAISED_HAND_MIN_WRIST_SCORE = 0.4;
/** Hands on hips: wrist within this horizontal distance of its hip, in shoulder widths. */
export const HIPS_MAX_DX_SW = 0.5;
/** Hands on hips: wrist from this far above the hip line ... */
export const HIPS_MAX_ABOVE_SW = 0.5;
/** ... to this far below it (hanging arms put the wrists lower), in shoulder widths. */
export const HIPS_MAX_BELOW_SW = 0.15;
/** Hands on hips: a visible elbow must stick out at least this far from the body midline (akimbo). */
export const HIPS_MIN_ELBOW_OUT_SW = 0.6;

/** Where the body is in this frame; null-able parts were not seen with enough confidence. */
export interface BodyFrame {
  /** Shoulder width in pixels (or its estimate): the unit of every posture distance. */
  scale: number;
  /** Horizontal body midline (px). */
  midX: number;
  /** Nose line (px, measured or estimated from the shoulders). */
  noseY: number;
  shoulderY: number;
  /** Hip line (px, measured or estimated from the shoulders). */
  hipY: number;
  /** True when both hips were seen (not estimated). */
  hipsSeen: boolean;
  wrist: Record<HandSide, (Vec2 & { score: number }) | null>;
  elbow: Record<HandSide, Vec2 | null>;
  shoulder: Record<HandSide, Vec2 | null>;
  hip: Record<HandSide, Vec2 | null>;
}

function kp(pose: NonNullable<FrameObservation['pose']>, name: string, minScore: number): Keypoint | null {
  const k = pose.keypoints?.[name];
  if (!k || !Number.isFinite(k.x) || !Number.isFinite(k.y) || !(k.score >= minScore)) return null;
  return k;
}

/**
 * Builds the body reference frame, or null when there is no usable person (no pose, pose score
 * below {@link MIN_POSE_SCORE}, no shoulder, or no way to get a scale).
 *
 * @param minScore keypoint score threshold. @default DEFAULT_MIN_KEYPOINT_SCORE (0.3)
 */
export function bodyFrame(
  pose: FrameObservation['pose'],
  minScore: number = DEFAULT_MIN_KEYPOINT_SCORE,
): BodyFrame | null {
  if (!pose || !(pose.score >= MIN_POSE_SCORE) || !pose.keypoints) return null;
  const get = (name: string) => kp(pose, name, minScore);
  const ls = get('left_shoulder');
  const rs = get('right_shoulder');
  if (!ls && !rs) return null;
  const lh = get('left_hip');
  const rh = get('right_hip');
  const shoulderY = mean([ls, rs].filter((k): k is Keypoint => k !== null).map((k) => k.y));
  const hips = [lh, rh].filter((k): k is Keypoint => k !== null);

  // Scale: the shoulder width, but never less than the torso implies, because shoulders
  // foreshorten when the person turns sideways while the torso length does not.
  const candidates: number[] = [];
  if (ls && rs) candidates.push(dist(ls, rs));
  if (hips.length > 0) candidates.push((mean(hips.map((k) => k.y)) - shoulderY) / TORSO_PER_SHOULDER_WIDTH);
  const le = get('left_ear');
  const re = get('right_ear');
  if (candidates.length === 0 && le && re) candidates.push(dist(le, re) / EARS_PER_SHOULDER_WIDTH);
  const scale = Math.max(0, ...candidates.filter(Number.isFinite));
  if (!(scale > 1e-6)) return null;

  const midX = ls && rs ? (ls.x + rs.x) / 2 : hips.length === 2 ? (hips[0].x + hips[1].x) / 2 : (ls ?? rs)!.x;
  const hipY = hips.length > 0 ? mean(hips.map((k) => k.y)) : shoulderY + TORSO_PER_SHOULDER_WIDTH * scale;
  const nose = get('nose');
  const noseY = nose ? nose.y : shoulderY - NOSE_ABOVE_SHOULDERS_SW * scale;
  const pt = (k: Keypoint | null): Vec2 | null => (k ? { x: k.x, y: k.y } : null);
  const wrist = (name: string) => {
    const k = get(name);
    return k ? { x: k.x, y: k.y, score: k.score } : null;
  };
  return {
    scale,
    midX,
    noseY,
    shoulderY,
    hipY,
    hipsSeen: lh !== null && rh !== null,
    wrist: { left: wrist('left_wrist'), right: wrist('right_wrist') },
    elbow: { left: pt(get('left_elbow')), right: pt(get('right_elbow')) },
    shoulder: { left: pt(ls), right: pt(rs) },
    hip: { left: pt(lh), right: pt(rh) },
  };
}

/** Level label of one wrist (see DEFINITIONS.md); `not_visible` without body or wrist. */
export function handLevel(body: BodyFrame | null, side: HandSide): HandLevel {
  const w = body?.wrist[side];
  if (!body || !w) return 'not_visible';
  if (w.y < body.noseY) return 'above_head';
  const torso = body.hipY - body.shoulderY;
  const f = torso > 1e-6 ? (w.y - body.shoulderY) / torso : 0;
  if (f < SHOULDER_BAND_END) return 'shoulder';
  if (f < CHEST_BAND_END) return 'chest';
  if (f < WAIST_BAND_END) return 'waist';
  return 'below_waist';
}

/** Wrist height above the hip line in shoulder widths (positive up); 0 when not visible. */
export function handHeight(body: BodyFrame | null, side: HandSide): number {
  const w = body?.wrist[side];
  if (!body || !w) return 0;
  return (body.hipY - w.y) / body.scale;
}

/** A wrist is above the nose line, seen with score ≥ {@link RAISED_HAND_MIN_WRIST_SCORE}. */
export function isRaisedHand(body: BodyFrame | null): boolean {
  if (!body) return false;
  return (['left', 'right'] as const).some((side) => {
    const w = body.wrist[side];
    return w !== null && w.score >= RAISED_HAND_MIN_WRIST_SCORE && w.y < body.noseY;
  });
}

/** The wrist is above the shoulder line. */
export function isHandHigh(body: BodyFrame | null, side: HandSide): boolean {
  const w = body?.wrist[side];
  return !!body && !!w && w.y < body.shoulderY;
}

/**
 * Both wrists rest at the hips: each wrist near its own (seen) hip, at hip level, and each
 * visible elbow sticks out sideways — which separates akimbo from arms hanging at the sides.
 */
export function isHandsOnHips(body: BodyFrame | null): boolean {
  if (!body || !body.hipsSeen) return false;
  const s = body.scale;
  return (['left', 'right'] as const).every((side) => {
    const w = body.wrist[side];
    const h = body.hip[side];
    if (!w || !h) return false;
    const dy = w.y - h.y; // positive = wrist below the hip
    if (Math.abs(w.x - h.x) > HIPS_MAX_DX_SW * s) return false;
    if (dy < -HIPS_MAX_ABOVE_SW * s || dy > HIPS_MAX_BELOW_SW * s) return false;
    const e = body.elbow[side];
    return !e || Math.abs(e.x - body.midX) >= HIPS_MIN_ELBOW_OUT_SW * s;
  });
}
