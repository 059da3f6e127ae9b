/**
 * @module analytics/visual/eyes
 * Eye openness: the eye aspect ratio (EAR, Soukupová & Čech 2016) from face-mesh eyelid points,
 * normalised per person over the clip so that 1 is the person's usual open eye and a blink drops
 * toward 0.
 */
import type { Point } from '../../contract/media.js';
import { clamp, dist, mean, percentile, toVec } from './math.js';

/** EAR points p1..p6 (corner, upper, upper, corner, lower, lower) in MediaPipe face-mesh indices. */
export const RIGHT_EYE_EAR_POINTS = [33, 160, 158, 133, 153, 144] as const;
export const LEFT_EYE_EAR_POINTS = [362, 385, 387, 263, 373, 380] as const;
/** The person's "fully open" EAR is this percentile of their EARs over the clip. */
export const OPEN_EYE_PERCENTILE = 90;

function earOf(mesh: Point[], idx: readonly number[]): number | null {
  const p = idx.map((i) => toVec(mesh[i]));
  if (p.some((v) => v === null)) return null;
  const [p1, p2, p3, p4, p5, p6] = p as NonNullable<(typeof p)[number]>[];
  const width = dist(p1, p4);
  if (width < 1e-9) return null;
  return (dist(p2, p6) + dist(p3, p5)) / (2 * width);
}

/**
 * Eye aspect ratio averaged over the eyes that can be measured; null when neither can (no face,
 * short mesh). About 0.25–0.35 for an open eye, near 0 when the lids touch.
 */
export function eyeAspectRatio(mesh: Point[] | null | undefined): number | null {
  if (!mesh || mesh.length < 468) return null;
  const ears = [earOf(mesh, RIGHT_EYE_EAR_POINTS), earOf(mesh, LEFT_EYE_EAR_POINTS)].filter(
    (v): v is number => v !== null,
  );
  return ears.length > 0 ? mean(ears) : null;
}

/**
 * Per-clip normalisation: each EAR divided by the {@link OPEN_EYE_PERCENTILE}th percentile of the
 * clip's measured EARs, clamped to 0..1. Frames without a measurement get 0.
 *
 * @example normaliseEyeOpenness([0.3, 0.3, 0, null]) // → [1, 1, 0, 0]
 */
export function normaliseEyeOpenness(ears: ReadonlyArray<number | null>): number[] {
  const measured = ears.filter((v): v is number => v !== null && Number.isFinite(v));
  const open = percentile(measured, OPEN_EYE_PERCENTILE);
  return ears.map((v) => (v === null || !(open > 0) ? 0 : clamp(v / open, 0, 1)));
}
