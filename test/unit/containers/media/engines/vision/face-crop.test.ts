/**
 * Where the vision engine looks again for a missed face: one square crop around the pose's head
 * keypoints, sized from the shoulder width, inside the frame. Same hand-built person as
 * hands.test.ts (fixtures.ts: shoulder width 120 px, head keypoints around (300, 124)).
 */
import { describe, expect, it } from 'vitest';
import {
  HEAD_CROP_SIZE_SW,
  headCrop,
  MIN_HEAD_CROP_PX,
} from '../../../../../../containers/media/engines/vision/face-crop.js';
import { keypoint, pose, SHOULDER_WIDTH } from '../../../../src/analytics/visual/fixtures.js';

describe('headCrop', () => {
  it('should centre a square of HEAD_CROP_SIZE_SW shoulder widths on the head keypoints', () => {
    const size = Math.floor(HEAD_CROP_SIZE_SW * SHOULDER_WIDTH);
    // Head keypoints: nose (300, 130), eyes (310|290, 120), ears (325|275, 125) → centre (300, 124).
    expect(headCrop(pose(), 640, 480)).toEqual({ x: 300 - size / 2, y: 124 - size / 2, size });
  });

  it('should use only the head keypoints seen', () => {
    const crop = headCrop(
      pose({
        left_eye: keypoint(0, 0, 0.1),
        right_eye: keypoint(0, 0, 0.1),
        left_ear: undefined,
        right_ear: undefined,
      }),
      640,
      480,
    )!;
    expect(crop.x + crop.size / 2).toBe(300); // the nose alone
    expect(crop.y + crop.size / 2).toBe(130);
  });

  it('should shift the crop inside the frame, not shrink it', () => {
    const crop = headCrop(
      pose({
        nose: keypoint(20, 10),
        left_eye: undefined,
        right_eye: undefined,
        left_ear: undefined,
        right_ear: undefined,
      }),
      640,
      480,
    )!;
    expect(crop).toEqual({ x: 0, y: 0, size: Math.floor(HEAD_CROP_SIZE_SW * SHOULDER_WIDTH) });
  });

  it('should give no crop without a head, without a body, or when it would be tiny', () => {
    const noHead = {
      nose: undefined,
      left_eye: undefined,
      right_eye: undefined,
      left_ear: undefined,
      right_ear: undefined,
    };
    expect(headCrop(pose(noHead), 640, 480)).toBeNull();
    expect(headCrop(null, 640, 480)).toBeNull();
    expect(headCrop(pose({ left_shoulder: undefined, right_shoulder: undefined }), 640, 480)).toBeNull();
    expect(headCrop(pose(), MIN_HEAD_CROP_PX - 1, 480)).toBeNull();
  });
});
