/**
 * @module containers/media/engines/gaze/geometry
 * Pure eye geometry from the 478-point face mesh: each eye's corners, lid contour, iris centre
 * and radius, and where the iris should sit to look into the camera. The target follows the
 * project's own gaze measure (`src/analytics/visual/gaze.ts`), so "corrected" means the same
 * thing to the editor and to the analysis that checks it.
 */
import {
  EYEBALL_RADIUS_PER_EYE_WIDTH,
  IRIS_REST_UP_PER_EYE_WIDTH,
} from '../../../../src/analytics/visual/gaze.js';

export type Xy = { x: number; y: number };
export type MeshLike = ArrayLike<ArrayLike<number | undefined>>;

/**
 * Lid contours (MediaPipe canonical mesh), corner to corner, upper lid then lower lid back.
 * The first list is the person's right eye (image left in an unmirrored frame).
 */
export const EYE_CONTOURS = [
  {
    corners: [33, 133],
    upper: [33, 246, 161, 160, 159, 158, 157, 173, 133],
    lower: [133, 155, 154, 153, 145, 144, 163, 7, 33],
  },
  {
    corners: [362, 263],
    upper: [362, 398, 384, 385, 386, 387, 388, 466, 263],
    lower: [263, 249, 390, 373, 374, 380, 381, 382, 362],
  },
] as const;
/** Iris centre + 4 contour points per eye (Human's order may swap the eyes: matched by distance). */
export const IRIS_POINTS = [
  [468, 469, 470, 471, 472],
  [473, 474, 475, 476, 477],
] as const;

/** Below this lid opening (height / width) the eye counts as closed: nothing to move. */
export const MIN_EYE_OPENING = 0.12;
/** Openings above this get the full correction; between the two it fades (blinks, squints). */
export const FULL_EYE_OPENING = 0.2;

export interface EyeGeometry {
  /** Corner midpoint. */
  center: Xy;
  /** Unit vector from the person's right corner toward their left corner. */
  axis: Xy;
  /** Unit vector toward the forehead, perpendicular to `axis`. */
  up: Xy;
  /** Corner-to-corner distance, px. */
  width: number;
  /** Lid contour polygon (closed implicitly), px. */
  polygon: Xy[];
  iris: Xy;
  /** Iris radius, px (mean distance of the iris contour points from the centre). */
  irisRadius: number;
  /** Lid opening over width (~0.3 open, <0.12 closed). */
  opening: number;
}

const P = (mesh: MeshLike, i: number): Xy => ({ x: mesh[i][0]!, y: mesh[i][1]! });
const sub = (a: Xy, b: Xy): Xy => ({ x: a.x - b.x, y: a.y - b.y });
const dot = (a: Xy, b: Xy) => a.x * b.x + a.y * b.y;
const len = (a: Xy) => Math.hypot(a.x, a.y);

/** Both eyes' geometry, or null when the mesh has no iris points (iris model off or failed). */
export function eyeGeometry(mesh: MeshLike): EyeGeometry[] | null {
  if (!mesh || mesh.length < 478) return null;
  const irises = IRIS_POINTS.map((ids) => {
    const c = P(mesh, ids[0]);
    const r = ids.slice(1).reduce((s, i) => s + len(sub(P(mesh, i), c)), 0) / 4;
    return { c, r };
  });
  const mouth = { x: (mesh[13][0]! + mesh[14][0]!) / 2, y: (mesh[13][1]! + mesh[14][1]!) / 2 };
  const eyes: EyeGeometry[] = [];
  for (const e of EYE_CONTOURS) {
    const a = P(mesh, e.corners[0]);
    const b = P(mesh, e.corners[1]);
    const width = len(sub(b, a));
    if (!(width > 2)) return null;
    // Axis from the person's right to their left, whichever eye: right eye 33→133, left 362→263.
    const axis = { x: (b.x - a.x) / width, y: (b.y - a.y) / width };
    const center = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    // Up = the perpendicular that points away from the mouth (handles roll and mirroring).
    let up = { x: axis.y, y: -axis.x };
    if (dot(up, sub(center, mouth)) < 0) up = { x: -up.x, y: -up.y };
    const polygon = [...e.upper, ...e.lower.slice(1, -1)].map((i) => P(mesh, i));
    const iris = irises.reduce((m, p) => (len(sub(p.c, center)) < len(sub(m.c, center)) ? p : m));
    // Opening: top-most upper-lid point to bottom-most lower-lid point along `up`.
    const ups = polygon.map((p) => dot(sub(p, center), up));
    const opening = (Math.max(...ups) - Math.min(...ups)) / width;
    eyes.push({ center, axis, up, width, polygon, iris: iris.c, irisRadius: iris.r, opening });
  }
  return eyes;
}

export interface GazeTargetOptions {
  /** Fraction of the measured gaze error removed, 0..1. Default 1. */
  strength?: number;
  /** Let the eyes compensate head yaw/pitch (look into the camera, not straight ahead). Default true. */
  headCompensation?: boolean;
  /** Head angles beyond this are not compensated further, degrees. Default 15. */
  maxHeadDeg?: number;
  /** Largest iris shift, in eye widths (bigger moves look unnatural). Default 0.12. */
  maxShiftPerEyeWidth?: number;
}

/**
 * Pure: per eye, the shift (px) that moves its iris to where it would be when looking into the
 * camera. Inverts the gaze measure: eye-in-head angle = −(head angle), with the iris resting
 * `IRIS_REST_UP_PER_EYE_WIDTH` above the corner line and an eyeball of
 * `EYEBALL_RADIUS_PER_EYE_WIDTH`. Both eyes get the SAME rotation (the mean error of the two,
 * in eye widths), as the measure averages them: each eye's corner midpoint is off its
 * eyeball centre by a few percent (the caruncle), so centring each iris on its own midpoint
 * would make the person cross-eyed. Faded out for closing eyes.
 * @param rotation Human's head angles in radians (yaw > 0 = head to the person's right, pitch > 0 = down).
 */
export function irisShifts(
  eyes: EyeGeometry[],
  rotation: { yaw: number; pitch: number } | null,
  options: GazeTargetOptions = {},
): Xy[] {
  const { strength = 1, headCompensation = true, maxHeadDeg = 15, maxShiftPerEyeWidth = 0.12 } = options;
  if (eyes.length === 0) return [];
  const maxHead = (maxHeadDeg * Math.PI) / 180;
  const clampA = (v: number) => Math.max(-maxHead, Math.min(maxHead, v));
  const yaw = headCompensation && rotation && Number.isFinite(rotation.yaw) ? clampA(rotation.yaw) : 0;
  const pitch = headCompensation && rotation && Number.isFinite(rotation.pitch) ? clampA(rotation.pitch) : 0;
  const R = EYEBALL_RADIUS_PER_EYE_WIDTH;
  // In eye widths. gaze.ts: eyeX = −asin(a/R) and we want eyeX = −yaw → a = R·sin(yaw);
  // eyeY = asin((u − rest)/R) and we want eyeY = +pitch → u = rest + R·sin(pitch).
  const targetAlong = R * Math.sin(yaw);
  const targetUp = IRIS_REST_UP_PER_EYE_WIDTH + R * Math.sin(pitch);
  let along = 0,
    up = 0;
  for (const e of eyes) {
    const off = sub(e.iris, e.center);
    along += dot(off, e.axis) / e.width / eyes.length;
    up += dot(off, e.up) / e.width / eyes.length;
  }
  let dA = (targetAlong - along) * strength;
  let dU = (targetUp - up) * strength;
  const m = Math.hypot(dA, dU);
  if (m > maxShiftPerEyeWidth) {
    dA *= maxShiftPerEyeWidth / m;
    dU *= maxShiftPerEyeWidth / m;
  }
  // A blink or squint in either eye fades both: the eyes must keep moving together.
  const opening = Math.min(...eyes.map((e) => e.opening));
  const fade = Math.max(0, Math.min(1, (opening - MIN_EYE_OPENING) / (FULL_EYE_OPENING - MIN_EYE_OPENING)));
  return eyes.map((e) => ({
    x: (e.axis.x * dA + e.up.x * dU) * e.width * fade,
    y: (e.axis.y * dA + e.up.y * dU) * e.width * fade,
  }));
}
