/**
 * @module containers/media/engines/vision/face-crop
 * Where to look again for a face the detector missed. The short-range face detector
 * (`blazeface-front`, 128² input) sees the whole frame squeezed into 128 px, so the small face of
 * a full-body shot is a dozen pixels there and is missed; the same face fills a crop around the
 * pose's head and is found. So when a frame's face pass finds nothing but the pose shows a head,
 * the face models run once more on one square crop around it. Pure geometry: no tensors here
 * (the engine cuts and runs the crop). Head-and-shoulder shots, where the face is found on the
 * whole frame, never pay for it.
 */
import type { FrameObservation } from '../../../../src/contract/media.js';
import { bodyFrame, DEFAULT_MIN_KEYPOINT_SCORE } from '../../../../src/analytics/visual/posture.js';
import type { CropBox } from './hand-crop.js';

/** Pose keypoints on the head: the crop is centred on the mean of those seen. */
export const HEAD_KEYPOINTS = ['nose', 'left_eye', 'right_eye', 'left_ear', 'right_ear'] as const;
/**
 * Side of the square crop in shoulder widths. A face is ≈ 0.45 shoulder widths across (ear to
 * ear) and ≈ 0.6 high; 1.2 leaves room for a tilted or turned head and keeps the face at about a
 * third of the crop, as large as the short-range detector expects it.
 */
export const HEAD_CROP_SIZE_SW = 1.2;
/** Smaller crops are not worth a pass: the face mesh would see a few pixels blown up. */
export const MIN_HEAD_CROP_PX = 32;

/**
 * The square crop around the pose's head, shifted (not shrunk) to stay inside the frame; null
 * without a body (`bodyFrame`), without a head keypoint seen with score ≥ 0.3, or when the
 * crop would be smaller than {@link MIN_HEAD_CROP_PX}.
 *
 * @example
 * const crop = headCrop(observation.pose, observation.width, observation.height);
 * if (crop) face = await runFaceModelsOn(crop);
 */
export function headCrop(pose: FrameObservation['pose'], width: number, height: number): CropBox | null {
  const body = bodyFrame(pose);
  if (!pose || !body) return null;
  const head = HEAD_KEYPOINTS.map((name) => pose.keypoints[name]).filter(
    (k) => k && Number.isFinite(k.x) && Number.isFinite(k.y) && k.score >= DEFAULT_MIN_KEYPOINT_SCORE,
  );
  if (head.length === 0) return null;
  const size = Math.floor(Math.min(HEAD_CROP_SIZE_SW * body.scale, width, height));
  if (!(size >= MIN_HEAD_CROP_PX)) return null;
  const cx = head.reduce((sum, k) => sum + k.x, 0) / head.length;
  const cy = head.reduce((sum, k) => sum + k.y, 0) / head.length;
  const x = Math.round(Math.min(Math.max(cx - size / 2, 0), width - size));
  const y = Math.round(Math.min(Math.max(cy - size / 2, 0), height - size));
  return { x, y, size };
}
