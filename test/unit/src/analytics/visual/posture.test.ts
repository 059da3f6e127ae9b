import { describe, expect, it } from 'vitest';
import {
  bodyFrame,
  handDepth,
  handHeight,
  handLevel,
  isHandForward,
  isHandHigh,
  isHandsOnHips,
  isRaisedHand,
  palmSize,
} from '../../../../../src/analytics/visual/index.js';
import { HIP_Y, handLandmarks, keypoint, pose } from './fixtures.js';

describe('bodyFrame', () => {
  it('should use the shoulder width as scale and find the lines', () => {
    const b = bodyFrame(pose())!;
    expect(b.scale).toBeCloseTo(120);
    expect(b.shoulderY).toBe(200);
    expect(b.hipY).toBe(HIP_Y);
    expect(b.noseY).toBe(130);
    expect(b.hipsSeen).toBe(true);
  });

  it('should estimate the hip line when the hips are cropped out', () => {
    const b = bodyFrame(pose({ left_hip: undefined, right_hip: undefined }))!;
    expect(b.hipY).toBeCloseTo(200 + 1.3 * 120);
    expect(b.hipsSeen).toBe(false);
  });

  it('should return null without a pose, with a low pose score or without shoulders', () => {
    expect(bodyFrame(null)).toBeNull();
    expect(bodyFrame({ ...pose(), score: 0.01 })).toBeNull();
    expect(bodyFrame(pose({ left_shoulder: keypoint(360, 200, 0.1), right_shoulder: undefined }))).toBeNull();
  });
});

describe('raised hand and levels', () => {
  it('should flag raised_hand when a wrist is above the head', () => {
    const b = bodyFrame(pose({ right_wrist: keypoint(230, 60), right_elbow: keypoint(225, 140) }));
    expect(isRaisedHand(b)).toBe(true);
    expect(handLevel(b, 'right')).toBe('above_head');
    expect(handLevel(b, 'left')).toBe('below_waist');
    expect(isHandHigh(b, 'right')).toBe(true);
    expect(isHandHigh(b, 'left')).toBe(false);
    expect(handHeight(b, 'right')).toBeCloseTo((HIP_Y - 60) / 120);
  });

  it('should not flag raised_hand for an unconfident wrist above the head', () => {
    expect(isRaisedHand(bodyFrame(pose({ right_wrist: keypoint(230, 60, 0.35) })))).toBe(false);
  });

  it('should not flag raised_hand for hanging arms', () => {
    expect(isRaisedHand(bodyFrame(pose()))).toBe(false);
  });

  it('should label each band from the torso fraction', () => {
    const at = (y: number) => handLevel(bodyFrame(pose({ left_wrist: keypoint(368, y) })), 'left');
    expect(at(100)).toBe('above_head');
    expect(at(150)).toBe('shoulder'); // between nose and shoulder line
    expect(at(220)).toBe('shoulder'); // f = 0.13
    expect(at(260)).toBe('chest'); // f = 0.38
    expect(at(340)).toBe('waist'); // f = 0.9
    expect(at(420)).toBe('below_waist'); // f = 1.41
  });

  it('should say not_visible for a missing or low-score wrist and give height 0', () => {
    const b = bodyFrame(pose({ left_wrist: keypoint(368, 300, 0.05) }));
    expect(handLevel(b, 'left')).toBe('not_visible');
    expect(handHeight(b, 'left')).toBe(0);
    expect(handLevel(null, 'right')).toBe('not_visible');
  });
});

describe('hands on hips', () => {
  const akimbo = {
    left_wrist: keypoint(345, 345),
    right_wrist: keypoint(255, 345),
    left_elbow: keypoint(430, 280),
    right_elbow: keypoint(170, 280),
  };

  it('should flag both wrists at hip level near the hips with elbows out', () => {
    const b = bodyFrame(pose(akimbo));
    expect(isHandsOnHips(b)).toBe(true);
    expect(handLevel(b, 'left')).toBe('waist');
  });

  it('should also accept wrists at the hips when the elbows are not seen', () => {
    expect(isHandsOnHips(bodyFrame(pose({ ...akimbo, left_elbow: undefined, right_elbow: undefined })))).toBe(
      true,
    );
  });

  it('should not flag hanging arms, one hand, or hands held in front with elbows in', () => {
    expect(isHandsOnHips(bodyFrame(pose()))).toBe(false);
    expect(
      isHandsOnHips(bodyFrame(pose({ left_wrist: akimbo.left_wrist, left_elbow: akimbo.left_elbow }))),
    ).toBe(false);
    expect(
      isHandsOnHips(
        bodyFrame(pose({ ...akimbo, left_elbow: keypoint(350, 280), right_elbow: keypoint(250, 280) })),
      ),
    ).toBe(false);
  });

  it('should need both hips seen', () => {
    expect(isHandsOnHips(bodyFrame(pose({ ...akimbo, left_hip: undefined })))).toBe(false);
  });
});

describe('hand depth and forward', () => {
  it('should use the palm size: a large palm is forward, a small one is not', () => {
    const b = bodyFrame(pose({ left_wrist: keypoint(368, 300) }))!;
    // Expected palm length at the shoulders' distance: 0.28 × 120 = 33.6 px. The fixture palm is
    // 48 px long and 39.3 px wide (÷ 0.8 = 49.2 px implied length, the larger one wins).
    const h = handLandmarks('open', 368, 300, 1.2);
    expect(palmSize(h)).toBeCloseTo((1.2 * Math.hypot(39, 5)) / 0.8, 3);
    const big = handDepth(b, 'left', palmSize(h));
    expect(big).toBeCloseTo(palmSize(h) / 33.6 - 1, 3);
    expect(isHandForward(b, 'left', big)).toBe(true);
    const small = handDepth(b, 'left', palmSize(handLandmarks('open', 368, 300, 0.5)));
    expect(small).toBeLessThan(0);
    expect(isHandForward(b, 'left', small)).toBe(false);
  });

  it('should fall back to forearm foreshortening without hand landmarks', () => {
    // Forearm seen at 30 px of an expected 0.7 × 120 = 84 px: pointing at the camera.
    const b = bodyFrame(pose({ left_elbow: keypoint(365, 280), left_wrist: keypoint(365, 250) }))!;
    expect(handDepth(b, 'left', null)).toBeCloseTo(1 - 30 / 84, 3);
    expect(isHandForward(b, 'left', handDepth(b, 'left', null))).toBe(true);
    // Hanging forearm, full length in the image plane.
    const hang = bodyFrame(pose({ left_elbow: keypoint(365, 280), left_wrist: keypoint(365, 364) }))!;
    expect(handDepth(hang, 'left', null)).toBeCloseTo(0, 3);
  });

  it('should give 0 without a body', () => {
    expect(handDepth(null, 'left', palmSize(handLandmarks('open', 0, 0)))).toBe(0);
    expect(isHandForward(null, 'left', 5)).toBe(false);
  });
});
