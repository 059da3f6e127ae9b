/**
 * @module analytics/visual/gaze
 * Gaze angles and directions from the iris position between the eye corners (eye-in-head) plus
 * the engine's head yaw/pitch (head-in-camera).
 *
 * Convention (DEFINITIONS.md): left/right are the PERSON'S OWN, like every left/right in the
 * result. `gaze_angle_x` > 0 = toward the person's own right (image left in an unmirrored frame);
 * `gaze_angle_y` > 0 = up.
 */
import type { CompactFace, FrameObservation, Point } from '../../contract/media.js';
import { type Vec2, RAD_TO_DEG, clamp, dist, dot, mean, midpoint, sub, toVec, unit } from './math.js';
import type { GazeX, GazeY } from './types.js';

/**
 * Eye corners per eye, ordered from the person's right to their left (so the axis between them
 * points to the person's left whatever the image orientation).
 */
export const RIGHT_EYE_CORNERS = [33, 133] as const;
export const LEFT_EYE_CORNERS = [362, 263] as const;
/** Iris centres in the 478-point mesh (468 right eye, 473 left eye). */
export const IRIS_CENTERS = [468, 473] as const;
/** Eyeball radius over eye width (≈ 12 mm / 28–30 mm): turns an iris shift into an angle. */
export const EYEBALL_RADIUS_PER_EYE_WIDTH = 0.42;
/**
 * At rest (looking straight ahead) the iris centre sits this far above the line between the eye
 * corners, in eye widths. Measured with the embedded engine on frontal talking-head clips looking
 * at the camera (`../shared/media/talking_head`: +9° without it); Human's own gaze code applies a
 * similar correction.
 */
export const IRIS_REST_UP_PER_EYE_WIDTH = 0.065;
/** Default half-width of the `center` band, degrees. */
export const DEFAULT_GAZE_CENTER_DEG = 10;

/** Gaze in degrees; null parts could not be measured. */
export interface GazeAngles {
  /** Eye-in-head yaw from the iris, degrees, + = person's right; null without iris points. */
  eyeX: number | null;
  /** Eye-in-head pitch from the iris, degrees, + = up; null without iris points. */
  eyeY: number | null;
  /** Combined gaze, degrees (eye + head when enabled). */
  x: number;
  y: number;
  /** False when neither iris nor head rotation was available (direction unknown). */
  measured: boolean;
}

/**
 * The face's "up" direction in the image: perpendicular to the eye line, turned toward the eyes
 * from the mouth (so roll and mirroring are handled); image up when the mouth is missing.
 */
function faceUp(mesh: Point[], eyeAxis: Vec2): Vec2 {
  const perp = { x: eyeAxis.y, y: -eyeAxis.x };
  const eyes = [33, 263].map((i) => toVec(mesh[i]));
  const mouth = [13, 14].map((i) => toVec(mesh[i]));
  const ref =
    eyes[0] && eyes[1] && mouth[0] && mouth[1]
      ? sub(midpoint(eyes[0], eyes[1]), midpoint(mouth[0], mouth[1]))
      : { x: 0, y: -1 };
  return dot(perp, ref) >= 0 ? perp : { x: -perp.x, y: -perp.y };
}

/** Eye-in-head angles in degrees from the iris centres, or null without usable iris points. */
export function irisAngles(mesh: Point[] | null | undefined): { x: number; y: number } | null {
  if (!mesh || mesh.length < 478) return null;
  const irises = IRIS_CENTERS.map((i) => toVec(mesh[i])).filter((p): p is Vec2 => p !== null);
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [a, b] of [RIGHT_EYE_CORNERS, LEFT_EYE_CORNERS]) {
    const pa = toVec(mesh[a]);
    const pb = toVec(mesh[b]);
    if (!pa || !pb || irises.length === 0) continue;
    const width = dist(pa, pb);
    const axis = unit(sub(pb, pa));
    if (!axis || width < 1e-6) continue;
    const center = midpoint(pa, pb);
    // The iris of this eye is the one nearest its centre: robust to a swapped 468/473 order.
    const iris = irises.reduce((m, p) => (dist(p, center) < dist(m, center) ? p : m));
    const radius = EYEBALL_RADIUS_PER_EYE_WIDTH * width;
    const off = sub(iris, center);
    // Iris toward the person's left (+axis) means looking to their left, i.e. negative x.
    xs.push(-Math.asin(clamp(dot(off, axis) / radius, -1, 1)) * RAD_TO_DEG);
    const up = dot(off, faceUp(mesh, axis)) - IRIS_REST_UP_PER_EYE_WIDTH * width;
    ys.push(Math.asin(clamp(up / radius, -1, 1)) * RAD_TO_DEG);
  }
  return xs.length > 0 ? { x: mean(xs), y: mean(ys) } : null;
}

/**
 * Gaze angles of a face (full, or compact with its iris angles already measured). Head
 * yaw/pitch come from the engine (@vladmandic/human: yaw > 0 = head turned to the person's own
 * right, pitch > 0 = head down, radians) and are added to the eye-in-head angles when
 * `useHeadRotation`.
 *
 * @param useHeadRotation @default true
 */
export function gazeAngles(face: FrameObservation['face'] | CompactFace, useHeadRotation = true): GazeAngles {
  if (!face) return { eyeX: null, eyeY: null, x: 0, y: 0, measured: false };
  const eye = 'mesh' in face ? irisAngles(face.mesh) : (face.iris ?? null);
  const rot = useHeadRotation ? face.rotation : null;
  const headX = rot && Number.isFinite(rot.yaw) ? rot.yaw * RAD_TO_DEG : null;
  const headY = rot && Number.isFinite(rot.pitch) ? -rot.pitch * RAD_TO_DEG : null;
  return {
    eyeX: eye?.x ?? null,
    eyeY: eye?.y ?? null,
    x: (eye?.x ?? 0) + (headX ?? 0),
    y: (eye?.y ?? 0) + (headY ?? 0),
    measured: eye !== null || headX !== null || headY !== null,
  };
}

/** `right` above +threshold, `left` below −threshold, else `center` (person's own sides). */
export function gazeDirectionX(angleX: number, thresholdDeg = DEFAULT_GAZE_CENTER_DEG): GazeX {
  return angleX > thresholdDeg ? 'right' : angleX < -thresholdDeg ? 'left' : 'center';
}

/** `up` above +threshold, `down` below −threshold, else `center`. */
export function gazeDirectionY(angleY: number, thresholdDeg = DEFAULT_GAZE_CENTER_DEG): GazeY {
  return angleY > thresholdDeg ? 'up' : angleY < -thresholdDeg ? 'down' : 'center';
}

/**
 * Combined label: `center`, or the non-centre parts joined vertical first (`up`, `left`,
 * `down-right`...).
 */
export function gazeDirection(x: GazeX, y: GazeY): string {
  const parts = [y, x].filter((p) => p !== 'center');
  return parts.length === 0 ? 'center' : parts.join('-');
}
