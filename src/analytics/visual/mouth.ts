/**
 * @module analytics/visual/mouth
 * Mouth width, opening and smile, relative to the face size (inter-ocular distance), so they do
 * not depend on how close the person sits.
 */
import type { FrameObservation } from '../../contract/media.js';
import { clamp, dist, dot, midpoint, sub, toVec, unit } from './math.js';

/** Mouth corners, inner-lip centres and outer eye corners in the MediaPipe face mesh. */
export const MOUTH_CORNERS = [61, 291] as const;
/** Inner lips: 13 upper, 14 lower. */
export const INNER_LIPS = [13, 14] as const;
export const OUTER_EYE_CORNERS = [33, 263] as const;
/** Inter-ocular distance (outer corners) over face-box width; the fallback face scale. */
export const EYE_SPAN_PER_FACE_BOX_WIDTH = 0.55;
/** Mouth widening over the person's median that counts as a full smile (+25 %). */
export const SMILE_FULL_WIDENING = 0.25;
/** Corner lift over the person's median that counts as a full smile, in inter-ocular distances. */
export const SMILE_FULL_LIFT = 0.04;

/** Raw mouth measurements, all in inter-ocular distances. */
export interface MouthMetrics {
  /** Corner-to-corner width. */
  width: number;
  /** Inner-lip gap. */
  open: number;
  /**
   * How far the corners sit above the upper inner lip (13) along the face's up direction (+ = up;
   * usually negative). The upper lip moves with the skull, not the jaw, so talking (jaw drop)
   * does not read as a smile.
   */
  lift: number;
}

/** Mouth metrics of a face, or null when the mesh lacks the points. */
export function mouthMetrics(face: FrameObservation['face']): MouthMetrics | null {
  const mesh = face?.mesh;
  if (!face || !mesh || mesh.length < 468) return null;
  const [c1, c2] = MOUTH_CORNERS.map((i) => toVec(mesh[i]));
  const [l1, l2] = INNER_LIPS.map((i) => toVec(mesh[i]));
  const [e1, e2] = OUTER_EYE_CORNERS.map((i) => toVec(mesh[i]));
  if (!c1 || !c2 || !l1 || !l2) return null;
  const boxW = Array.isArray(face.box) ? face.box[2] : 0;
  const ref = e1 && e2 ? dist(e1, e2) : EYE_SPAN_PER_FACE_BOX_WIDTH * boxW;
  if (!(ref > 1e-6)) return null;
  const lipCentre = midpoint(l1, l2);
  const corners = midpoint(c1, c2);
  const upperLip = l1;
  // Face up: from the lips toward the eyes (handles roll); image up without eyes.
  const up = (e1 && e2 && unit(sub(midpoint(e1, e2), lipCentre))) || { x: 0, y: -1 };
  return {
    width: dist(c1, c2) / ref,
    open: dist(l1, l2) / ref,
    lift: dot(sub(corners, upperLip), up) / ref,
  };
}

/** The person's neutral mouth: medians of width and lift over the clip's face frames. */
export interface MouthBaseline {
  width: number;
  lift: number;
}

/**
 * Smile, 0..1, relative to the person's own neutral mouth: the mean of widening
 * ((width ÷ neutral width − 1) ÷ {@link SMILE_FULL_WIDENING}) and corner lift
 * ((lift − neutral lift) ÷ {@link SMILE_FULL_LIFT}), each clamped to 0..1.
 */
export function smileRatio(m: MouthMetrics | null, baseline: MouthBaseline): number {
  if (!m || !(baseline.width > 0)) return 0;
  const widening = clamp((m.width / baseline.width - 1) / SMILE_FULL_WIDENING, 0, 1);
  const lift = clamp((m.lift - baseline.lift) / SMILE_FULL_LIFT, 0, 1);
  return (widening + lift) / 2;
}
