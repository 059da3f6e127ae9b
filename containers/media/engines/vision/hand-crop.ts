/**
 * @module containers/media/engines/vision/hand-crop
 * Where to look again for hands the detector missed. On a whole frame the hand detector sees a
 * hand as a few dozen pixels (a 640 px-wide full-body shot) and misses it, while the same hand
 * fills a crop around the wrist and is found. So after the full-frame pass, every pose wrist that
 * no accepted hand belongs to (the analytics' own test, `assignHands`) gets one square crop,
 * centred a little beyond the wrist along the forearm, where the hand is. Pure geometry: no
 * tensors here (the engine cuts and runs the crops).
 *
 * A hand found this way is marked `source: 'wrist-crop'` on the full observation (an extra field
 * the contract does not declare; `compactHand` drops it, so `CompactFrame` is unchanged).
 */
import type { FrameObservation } from '../../../../src/contract/media.js';
import { compactHand } from '../../../../src/analytics/visual/compact.js';
import { assignHands, HAND_MIN_WRIST_SCORE, judgeHand } from '../../../../src/analytics/visual/hands.js';
import { type Vec2, unit } from '../../../../src/analytics/visual/math.js';
import { bodyFrame } from '../../../../src/analytics/visual/posture.js';
import type { HandSide } from '../../../../src/analytics/visual/types.js';
import type { HandObservation } from './engines.js';

/** At most one crop per wrist, so at most this many extra hand passes per frame. */
export const MAX_WRIST_CROPS_PER_FRAME = 2;
/**
 * Side of the square crop in shoulder widths. A hand (wrist → middle fingertip) is ≈ 0.55 S;
 * 1.3 S leaves room for a bent wrist and for a hand nearer the camera than the shoulders.
 */
export const WRIST_CROP_SIZE_SW = 1.3;
/** The crop's centre lies this far beyond the wrist along elbow → wrist: the hand's centre (≈ half a hand). */
export const WRIST_CROP_SHIFT_SW = 0.3;
/** Smaller crops are not worth a pass: the hand would be a handful of pixels. */
export const MIN_WRIST_CROP_PX = 24;

/** A square region of the frame, integer pixels, fully inside it. */
export interface CropBox {
  x: number;
  y: number;
  size: number;
}

/** A crop to search for the hand of one wrist. */
export interface WristCrop extends CropBox {
  side: HandSide;
}

/** Where a hand observation came from: the full frame, or a crop around a wrist. */
export type HandSource = 'frame' | 'wrist-crop';
export type SourcedHand = HandObservation & { source?: HandSource };

export interface WristCropOptions {
  /** Crop side in shoulder widths. Default {@link WRIST_CROP_SIZE_SW}. */
  sizeSw?: number;
  /** Shift of the centre beyond the wrist, shoulder widths. Default {@link WRIST_CROP_SHIFT_SW}. */
  shiftSw?: number;
}

/**
 * The square crop for one wrist: side `sizeSw × scale`, centred `shiftSw × scale` beyond the
 * wrist along elbow → wrist (on the wrist when the elbow is not seen), shifted, not shrunk, to
 * stay inside the frame (shrunk only when the frame itself is smaller). Null when the crop would
 * be smaller than {@link MIN_WRIST_CROP_PX}.
 *
 * @param scale the body's shoulder width in px (`bodyFrame(pose).scale`).
 * @example
 * wristCropBox({ x: 368, y: 400 }, { x: 365, y: 280 }, 120, 640, 720) // → { x: 291, y: 358, size: 156 }
 */
export function wristCropBox(
  wrist: Vec2,
  elbow: Vec2 | null,
  scale: number,
  width: number,
  height: number,
  options: WristCropOptions = {},
): CropBox | null {
  const { sizeSw = WRIST_CROP_SIZE_SW, shiftSw = WRIST_CROP_SHIFT_SW } = options;
  const size = Math.floor(Math.min(sizeSw * scale, width, height));
  if (!(size >= MIN_WRIST_CROP_PX)) return null;
  const forearm = elbow ? unit({ x: wrist.x - elbow.x, y: wrist.y - elbow.y }) : null;
  const cx = wrist.x + (forearm ? forearm.x * shiftSw * scale : 0);
  const cy = wrist.y + (forearm ? forearm.y * shiftSw * scale : 0);
  const x = Math.round(Math.min(Math.max(cx - size / 2, 0), width - size));
  const y = Math.round(Math.min(Math.max(cy - size / 2, 0), height - size));
  return { x, y, size };
}

/**
 * Whether the hand model can find anything the analytics would keep on this frame: a body
 * (`bodyFrame`) with at least one wrist seen with score ≥ `HAND_MIN_WRIST_SCORE`. `judgeHand`
 * rejects every hand without one (`no_body`, `no_wrist`), so skipping the hand passes when this
 * is false changes no accepted hand, gesture or label; it only drops raw detections (on faces,
 * hair and collars of head-and-shoulder shots) that the analytics discard anyway.
 *
 * @example
 * if (handSearchWorthwhile(observation.pose)) hands = await runHandModel(frame);
 */
export function handSearchWorthwhile(pose: FrameObservation['pose']): boolean {
  const body = bodyFrame(pose);
  if (!body) return false;
  return (['left', 'right'] as const).some((side) => (body.wrist[side]?.score ?? 0) >= HAND_MIN_WRIST_SCORE);
}

/**
 * A wrist "on the edge": seen (score ≥ `HAND_MIN_WRIST_SCORE`) with its elbow not seen, within
 * this many shoulder widths of the frame's bottom. MoveNet puts the wrists of arms that leave the
 * frame there: on a head-and-shoulders shot whose shoulders touch the bottom (a speaker further
 * from the camera, a square video in a wide frame) it reports them at 0.3–0.5 between the
 * shoulders, on frame after frame, and every such frame would pay the hand model and up to two
 * wrist crops, the costliest passes of all, for hands that are not there (docs/benchmarks.md
 * "Unseen talking heads").
 */
export const EDGE_WRIST_BAND_SW = 0.25;
/**
 * On frames whose only wrists are on the edge, the hand passes run on one sampled frame in this
 * many (the first of the clip, then every n-th): a hand rising into the frame from below is still
 * looked for about every 1.5 s at the default 2 fps, at a third of the cost.
 */
export const EDGE_WRIST_HAND_EVERY_NTH = 3;

/** Which wrists a frame shows: none seen, only wrists on the bottom edge without their elbow, or a wrist in view. */
export type WristView = 'none' | 'edge' | 'clear';

/**
 * Pure: what the pose says about the wrists, for the hand-pass schedule. `clear` when a seen wrist
 * has its elbow seen too or lies above the bottom band ({@link EDGE_WRIST_BAND_SW}); `edge` when
 * every seen wrist is on the bottom edge without its elbow; `none` when no wrist is seen
 * ({@link handSearchWorthwhile} is false).
 * @example
 * wristView(pose, 360) // → 'edge' for a bust whose "wrists" sit between the shoulders at y 350
 */
export function wristView(pose: FrameObservation['pose'], height: number): WristView {
  const body = bodyFrame(pose);
  if (!body) return 'none';
  let seen = false;
  for (const side of ['left', 'right'] as const) {
    const wrist = body.wrist[side];
    if (!wrist || !(wrist.score >= HAND_MIN_WRIST_SCORE)) continue;
    seen = true;
    const onEdge = !body.elbow[side] && wrist.y >= height - EDGE_WRIST_BAND_SW * body.scale;
    if (!onEdge) return 'clear';
  }
  return seen ? 'edge' : 'none';
}

/** When the hand passes run: see {@link handPassWanted}. */
export interface HandPassOptions {
  /** Also where no face and no wrist in view are: a close-up of a hand may fill the frame. */
  closeups: boolean;
  /** The frame's ordinal among the clip's samples; unknown (a still, a direct call): searched. */
  sampleIndex?: number;
  /** Where the only wrists are on the edge, one sample in this many. Default {@link EDGE_WRIST_HAND_EVERY_NTH}. */
  edgeEveryNth?: number;
}

/**
 * Whether the hand model runs on a frame: where a wrist is in view ({@link wristView} `clear`);
 * where the only wrists are on the bottom edge, on one sampled frame in `edgeEveryNth` (the
 * clip's first, then every n-th); and, with `closeups`, where no face is and no wrist in view:
 * the frame may be a close-up of a hand (`judgeCloseupHand` in the analytics). Head-and-shoulder
 * shots (a face, no wrist) skip it: their raw detections are faces and collars.
 *
 * @example
 * if (handPassWanted(pose, face, frame.height, { closeups: true, sampleIndex: frame.index })) hands = await runHandModel(frame);
 */
export function handPassWanted(
  pose: FrameObservation['pose'],
  face: FrameObservation['face'],
  height: number,
  { closeups, sampleIndex, edgeEveryNth = EDGE_WRIST_HAND_EVERY_NTH }: HandPassOptions,
): boolean {
  const view = wristView(pose, height);
  if (view === 'clear') return true;
  if (closeups && !face) return true;
  return view === 'edge' && (sampleIndex === undefined || sampleIndex % Math.max(1, edgeEveryNth) === 0);
}

/**
 * The crops to run for one frame: one per pose wrist seen with score ≥ `HAND_MIN_WRIST_SCORE`
 * that no accepted hand belongs to (`assignHands`, the same test the analytics apply). None
 * without a body or without a visible wrist, so head-and-shoulder shots cost nothing extra.
 *
 * @example
 * for (const crop of wristCrops(observation)) runHandModelOn(crop);
 */
export function wristCrops(observation: FrameObservation, options: WristCropOptions = {}): WristCrop[] {
  const body = bodyFrame(observation.pose);
  if (!body) return [];
  const hands = observation.hands.map(compactHand).filter((h) => h !== null);
  const accepted = assignHands(hands, body, observation.face?.box ?? null);
  const crops: WristCrop[] = [];
  for (const side of ['left', 'right'] as const) {
    const wrist = body.wrist[side];
    if (!wrist || !(wrist.score >= HAND_MIN_WRIST_SCORE) || accepted[side]) continue;
    const box = wristCropBox(
      wrist,
      body.elbow[side],
      body.scale,
      observation.width,
      observation.height,
      options,
    );
    if (box) crops.push({ side, ...box });
  }
  return crops.slice(0, MAX_WRIST_CROPS_PER_FRAME);
}

/**
 * The best hand found in a crop that the analytics will accept for that crop's wrist (landmarks
 * already in frame pixels), marked `source: 'wrist-crop'`; null when none qualifies. A crop also
 * shows the other hand or the face at times: only a hand judged to belong to `crop.side` counts.
 */
export function pickCropHand(
  found: readonly HandObservation[],
  crop: WristCrop,
  observation: FrameObservation,
): SourcedHand | null {
  const body = bodyFrame(observation.pose);
  const faceBox = observation.face?.box ?? null;
  let best: SourcedHand | null = null;
  for (const hand of found) {
    const compact = compactHand(hand);
    if (!compact) continue;
    const verdict = judgeHand(compact, body, faceBox);
    if (!('side' in verdict) || verdict.side !== crop.side) continue;
    if (!best || hand.score > best.score) best = { ...hand, side: crop.side, source: 'wrist-crop' };
  }
  return best;
}
