/**
 * @module containers/media/engines/vision/human/mapping
 * Pure translation of Human's result objects into `FrameObservation` parts. No tensors here.
 *
 * Left/right: MoveNet labels the person's own sides, and Human's `bodyParts` fix enforces it
 * for an unmirrored camera image (a person facing the camera has their left shoulder at the
 * larger x). We never flip the input, so `left_*` is the person's left. Hand landmark models
 * do not say which hand they saw; we take the side from the nearest pose wrist.
 */
import type { Keypoint, Point } from '../../../../../src/contract/media.js';
import type { FaceObservation, HandObservation, PoseObservation } from '../engines.js';
import type { CropBox } from '../hand-crop.js';
import { MIN_BODY_SCORE, MIN_FACE_SCORE, MIN_HAND_SCORE } from './config.js';
import type { HumanResult } from './load.js';

/** The 17 COCO keypoints in MoveNet order, snake_case as the contract names them. */
export const COCO_KEYPOINTS = [
  'nose',
  'left_eye',
  'right_eye',
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
  'left_knee',
  'right_knee',
  'left_ankle',
  'right_ankle',
] as const;

/** A hand's wrist farther than this many hand-box diagonals from a pose wrist stays `unknown`. */
const MAX_WRIST_DISTANCE_IN_HAND_DIAGONALS = 1.5;
/** Pose wrists below this keypoint score are not trusted to name a hand's side. */
const MIN_WRIST_SCORE = 0.2;

const round = (v: number, digits = 1) => {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
};

/** `leftShoulder` → `left_shoulder`. */
export const toSnakeCase = (part: string) => part.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The best body as COCO keypoints in frame pixels, or null below `MIN_BODY_SCORE`. */
export function mapPose(bodies: HumanResult['body']): PoseObservation {
  const best = [...bodies].sort((a, b) => b.score - a.score)[0];
  if (!best || !(best.score >= MIN_BODY_SCORE)) return null;
  const keypoints: Record<string, Keypoint> = {};
  for (const kp of best.keypoints) {
    const name = toSnakeCase(kp.part);
    keypoints[name] = { x: round(kp.position[0]), y: round(kp.position[1]), score: round(kp.score, 3) };
  }
  return { score: round(best.score, 3), keypoints };
}

/** The best face with mesh (478 points when iris ran), rotation in radians and emotions. */
export function mapFace(faces: HumanResult['face']): FaceObservation {
  const best = [...faces].sort((a, b) => b.score - a.score)[0];
  if (!best || !(best.score >= MIN_FACE_SCORE) || best.mesh.length === 0) return null;
  const angle = best.rotation?.angle;
  return {
    score: round(best.score, 3),
    box: best.box.map((v) => round(v)) as [number, number, number, number],
    mesh: best.mesh.map(toPoint),
    rotation: angle
      ? { roll: round(angle.roll, 4), yaw: round(angle.yaw, 4), pitch: round(angle.pitch, 4) }
      : null,
    emotion: (best.emotion ?? []).map((e) => ({ emotion: e.emotion, score: round(e.score, 3) })),
  };
}

/**
 * Hands with 21 landmarks each; side from the nearest trusted pose wrist, one hand per side
 * (closest pairs first), `unknown` when no wrist is near.
 */
export function mapHands(hands: HumanResult['hand'], pose: PoseObservation): HandObservation[] {
  const found = hands.filter((h) => h.score >= MIN_HAND_SCORE && h.keypoints.length >= 21);
  const out: HandObservation[] = found.map((h) => ({
    side: 'unknown',
    score: round(h.score, 3),
    landmarks: h.keypoints.map(toPoint),
  }));
  if (!pose) return out;
  const wrists = (['left', 'right'] as const)
    .map((side) => ({ side, kp: pose.keypoints[`${side}_wrist`] }))
    .filter((w) => w.kp && w.kp.score >= MIN_WRIST_SCORE);
  const pairs: Array<{ hand: number; side: 'left' | 'right'; dist: number }> = [];
  found.forEach((h, i) => {
    const [hx, hy] = h.keypoints[0]; // landmark 0 is the wrist
    const diagonal = Math.hypot(h.box[2], h.box[3]) || 1;
    for (const w of wrists) {
      const dist = Math.hypot(hx - w.kp.x, hy - w.kp.y);
      if (dist <= MAX_WRIST_DISTANCE_IN_HAND_DIAGONALS * diagonal)
        pairs.push({ hand: i, side: w.side, dist });
    }
  });
  pairs.sort((a, b) => a.dist - b.dist);
  const usedSides = new Set<string>();
  const usedHands = new Set<number>();
  for (const p of pairs) {
    if (usedSides.has(p.side) || usedHands.has(p.hand)) continue;
    usedSides.add(p.side);
    usedHands.add(p.hand);
    out[p.hand].side = p.side;
  }
  return out;
}

/**
 * Hands Human found on a crop of the frame, moved back into frame pixels (box and landmark x, y;
 * landmark z is the model's own relative depth and stays as it is).
 */
export function handsFromCrop(hands: HumanResult['hand'], crop: CropBox): HumanResult['hand'] {
  return hands.map((h) => ({
    ...h,
    box: boxFromCrop(h.box, crop),
    keypoints: h.keypoints.map((p) => pointFromCrop(p, crop)),
  }));
}

/**
 * Faces Human found on a crop of the frame, moved back into frame pixels (box and mesh x, y;
 * mesh z and the head's rotation do not depend on where the crop was).
 */
export function facesFromCrop(faces: HumanResult['face'], crop: CropBox): HumanResult['face'] {
  return faces.map((f) => ({
    ...f,
    box: boxFromCrop(f.box, crop),
    mesh: f.mesh.map((p) => pointFromCrop(p, crop)),
  }));
}

const boxFromCrop = (
  [x, y, w, h]: [number, number, number, number],
  crop: CropBox,
): [number, number, number, number] => [crop.x + x, crop.y + y, w, h];
const pointFromCrop = ([x, y, z]: [number, number, number?], crop: CropBox): [number, number, number?] =>
  z === undefined ? [crop.x + x, crop.y + y] : [crop.x + x, crop.y + y, z];

function toPoint(p: [number, number, number?]): Point {
  return p.length > 2 && p[2] !== undefined
    ? [round(p[0]), round(p[1]), round(p[2], 2)]
    : [round(p[0]), round(p[1])];
}
