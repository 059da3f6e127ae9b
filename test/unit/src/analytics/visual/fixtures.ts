/**
 * Hand-built observations with known answers. An unmirrored upright person facing the camera:
 * the person's LEFT side is on the IMAGE RIGHT (larger x). Shoulder width 120 px.
 */
import type { FrameObservation, Keypoint, Point } from '../../../../../src/contract/media.js';

export const SHOULDER_Y = 200;
export const SHOULDER_WIDTH = 120;
export const HIP_Y = 356; // shoulder line + 1.3 shoulder widths

const k = (x: number, y: number, score = 0.9): Keypoint => ({ x, y, score });

/** Arms hanging at the sides by default; override any keypoint. */
export function pose(
  overrides: Record<string, Keypoint | undefined> = {},
): NonNullable<FrameObservation['pose']> {
  const keypoints: Record<string, Keypoint> = {
    nose: k(300, 130),
    left_eye: k(310, 120),
    right_eye: k(290, 120),
    left_ear: k(325, 125),
    right_ear: k(275, 125),
    left_shoulder: k(360, SHOULDER_Y),
    right_shoulder: k(240, SHOULDER_Y),
    left_elbow: k(365, 280),
    right_elbow: k(235, 280),
    left_wrist: k(368, 400),
    right_wrist: k(232, 400),
    left_hip: k(340, HIP_Y),
    right_hip: k(260, HIP_Y),
    left_knee: k(340, 460),
    right_knee: k(260, 460),
    left_ankle: k(340, 560),
    right_ankle: k(260, 560),
  };
  for (const [name, v] of Object.entries(overrides)) {
    if (v) keypoints[name] = v;
    else delete keypoints[name];
  }
  return { score: 0.8, keypoints };
}
export { k as keypoint };

/** Open palm, fingers up, in hand-local pixels around the wrist at (0, 0). */
const OPEN_PALM: Array<[number, number]> = [
  [0, 0],
  [-20, -10],
  [-35, -25],
  [-45, -40],
  [-55, -55], // thumb
  [-15, -45],
  [-17, -65],
  [-18, -80],
  [-19, -95], // index
  [0, -48],
  [0, -70],
  [0, -86],
  [0, -102], // middle
  [12, -45],
  [14, -66],
  [15, -80],
  [16, -94], // ring
  [24, -40],
  [27, -56],
  [29, -67],
  [31, -78], // pinky
];

/** Curled finger: up to the PIP, then back down over the palm. */
function curled(mcp: [number, number]): Array<[number, number]> {
  const [x, y] = mcp;
  return [
    [x, y],
    [x, y - 18],
    [x + 4, y - 10],
    [x + 4, y - 1],
  ];
}

const INDEX_ONLY: Array<[number, number]> = [
  [0, 0],
  [-20, -10],
  [-25, -25],
  [-10, -35],
  [5, -35], // thumb folded across the palm
  ...OPEN_PALM.slice(5, 9), // index extended
  ...curled([0, -48]),
  ...curled([12, -45]),
  ...curled([24, -40]),
];

const FIST: Array<[number, number]> = [
  [0, 0],
  [-20, -10],
  [-25, -25],
  [-10, -35],
  [5, -35],
  ...curled([-15, -45]),
  ...curled([0, -48]),
  ...curled([12, -45]),
  ...curled([24, -40]),
];

const PINCH: Array<[number, number]> = [
  [0, 0],
  [-20, -10],
  [-32, -28],
  [-36, -48],
  [-34, -66], // thumb tip meets...
  [-15, -45],
  [-22, -62],
  [-30, -70],
  [-34, -68], // ...the curved index tip
  ...OPEN_PALM.slice(9),
];

export type HandShape = 'open' | 'index' | 'fist' | 'pinch';
const SHAPES: Record<HandShape, Array<[number, number]>> = {
  open: OPEN_PALM,
  index: INDEX_ONLY,
  fist: FIST,
  pinch: PINCH,
};

/** 21 landmarks of a hand shape with its wrist at (x, y), scaled by `scale`. */
export function handLandmarks(shape: HandShape, x: number, y: number, scale = 1): Point[] {
  return SHAPES[shape].map(([dx, dy]) => [x + dx * scale, y + dy * scale, 0] as Point);
}

export interface FaceSpec {
  /** Eyelid half-gap in px (4 = open, 0 = closed). */
  lid?: number;
  /** Horizontal iris shift in IMAGE pixels (+ = image right), both eyes. */
  irisDx?: number;
  /** Vertical iris shift in IMAGE pixels (+ = image down), both eyes. */
  irisDy?: number;
  /** Include the 10 iris points (478-point mesh). */
  iris?: boolean;
  rotation?: { roll: number; yaw: number; pitch: number } | null;
  emotion?: Array<{ emotion: string; score: number }>;
  /** Mouth corner half-width (px) and lift of the corners (px, + = up). */
  mouthHalfWidth?: number;
  cornerLift?: number;
}

/** A frontal face: eyes 20 px wide at y 120, outer corners 60 px apart, mouth at y 160. */
export function face(spec: FaceSpec = {}): NonNullable<FrameObservation['face']> {
  const { lid = 4, irisDx = 0, irisDy = 0, iris = true, rotation = { roll: 0, yaw: 0, pitch: 0 } } = spec;
  const {
    emotion = [
      { emotion: 'happy', score: 0.7 },
      { emotion: 'neutral', score: 0.2 },
    ],
  } = spec;
  const { mouthHalfWidth = 15, cornerLift = 0 } = spec;
  const mesh: Point[] = Array.from({ length: iris ? 478 : 468 }, () => [300, 140, 0] as Point);
  const set = (i: number, x: number, y: number) => (mesh[i] = [x, y, 0]);
  // Person's right eye (image left): corners 33 (outer) and 133 (inner).
  set(33, 270, 120);
  set(133, 290, 120);
  set(160, 275, 120 - lid);
  set(158, 285, 120 - lid);
  set(144, 275, 120 + lid);
  set(153, 285, 120 + lid);
  // Person's left eye (image right): corners 362 (inner) and 263 (outer).
  set(362, 310, 120);
  set(263, 330, 120);
  set(385, 315, 120 - lid);
  set(387, 325, 120 - lid);
  set(380, 315, 120 + lid);
  set(373, 325, 120 + lid);
  if (iris) {
    // At rest the iris centre sits 0.065 eye widths (1.3 px) above the corner line.
    set(468, 280 + irisDx, 118.7 + irisDy);
    set(473, 320 + irisDx, 118.7 + irisDy);
  }
  // Face outline points used by nobody here, the mouth: corners 61/291, inner lips 13/14.
  set(61, 300 - mouthHalfWidth, 160 - cornerLift);
  set(291, 300 + mouthHalfWidth, 160 - cornerLift);
  set(13, 300, 158);
  set(14, 300, 162);
  return { score: 0.9, box: [250, 80, 100, 120], mesh, rotation, emotion };
}

export function frame(time: number, parts: Partial<Omit<FrameObservation, 'time'>> = {}): FrameObservation {
  return { time, width: 640, height: 480, pose: null, hands: [], face: null, ...parts };
}
