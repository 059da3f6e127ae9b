/**
 * Where the vision engine looks again for missed hands: one square crop per visible pose wrist
 * without an accepted hand, centred beyond the wrist along the forearm, inside the frame; and
 * which hand found in a crop is kept. Same hand-built person as hands.test.ts (fixtures.ts:
 * shoulder width 120 px, the person's left wrist at (368, 400) below the elbow at (365, 280),
 * right wrist at (232, 400), face box x 250–350, y 80–200).
 */
import { describe, expect, it } from 'vitest';
import type { FrameObservation } from '../../../../../../src/contract/media.js';
import { compactHand } from '../../../../../../src/analytics/visual/compact.js';
import { judgeHand } from '../../../../../../src/analytics/visual/hands.js';
import { bodyFrame } from '../../../../../../src/analytics/visual/posture.js';
import {
  EDGE_WRIST_BAND_SW,
  EDGE_WRIST_HAND_EVERY_NTH,
  handPassWanted,
  handSearchWorthwhile,
  MAX_WRIST_CROPS_PER_FRAME,
  MIN_WRIST_CROP_PX,
  pickCropHand,
  WRIST_CROP_SHIFT_SW,
  WRIST_CROP_SIZE_SW,
  wristCropBox,
  wristCrops,
  wristView,
} from '../../../../../../containers/media/engines/vision/hand-crop.js';
import { handsFromCrop } from '../../../../../../containers/media/engines/vision/human/mapping.js';
import {
  face,
  frame,
  handLandmarks,
  keypoint,
  pose,
  SHOULDER_WIDTH,
} from '../../../../src/analytics/visual/fixtures.js';

type Hand = FrameObservation['hands'][number];
const hand = (x: number, y: number, score = 0.9): Hand => ({
  side: 'unknown',
  score,
  landmarks: handLandmarks('open', x, y, 0.6),
});
/**
 * A bust whose shoulders touch the bottom of a 640×220 frame, as MoveNet sees a speaker framed
 * from the chest up: no elbows or hips, "wrists" at low scores between the shoulders on the edge.
 */
const BUST_HEIGHT = 220;
const edgeBust = pose({
  left_elbow: undefined,
  right_elbow: undefined,
  left_hip: undefined,
  right_hip: undefined,
  left_knee: undefined,
  right_knee: undefined,
  left_ankle: undefined,
  right_ankle: undefined,
  left_wrist: keypoint(330, 212, 0.35),
  right_wrist: keypoint(270, 214, 0.4),
});

/** A 640×720 frame: room below the hanging hands. */
const observation = (hands: Hand[] = [], overrides: Parameters<typeof pose>[0] = {}): FrameObservation => ({
  ...frame(0, { pose: pose(overrides), hands, face: face() }),
  width: 640,
  height: 720,
});

describe('wristCropBox', () => {
  const S = SHOULDER_WIDTH;

  it('should centre the crop beyond the wrist along elbow → wrist, sized in shoulder widths', () => {
    // Forearm pointing straight down: the centre moves 0.3 S below the wrist.
    const box = wristCropBox({ x: 300, y: 300 }, { x: 300, y: 180 }, S, 640, 720)!;
    expect(box.size).toBe(Math.floor(WRIST_CROP_SIZE_SW * S));
    expect(box.x + box.size / 2).toBeCloseTo(300, 0);
    expect(box.y + box.size / 2).toBeCloseTo(300 + WRIST_CROP_SHIFT_SW * S, 0);
  });

  it('should follow the forearm in any direction (raised arm: the crop moves up)', () => {
    const box = wristCropBox({ x: 300, y: 300 }, { x: 300 + 60, y: 300 + 80 }, S, 640, 720)!;
    // Unit elbow → wrist = (−0.6, −0.8).
    expect(box.x + box.size / 2).toBeCloseTo(300 - 0.6 * WRIST_CROP_SHIFT_SW * S, 0);
    expect(box.y + box.size / 2).toBeCloseTo(300 - 0.8 * WRIST_CROP_SHIFT_SW * S, 0);
  });

  it('should centre on the wrist when the elbow is not seen', () => {
    const box = wristCropBox({ x: 300, y: 300 }, null, S, 640, 720)!;
    expect(box.x + box.size / 2).toBeCloseTo(300, 0);
    expect(box.y + box.size / 2).toBeCloseTo(300, 0);
  });

  it('should shift the crop inside the frame at its edges, keeping its size', () => {
    const corner = wristCropBox({ x: 5, y: 5 }, { x: 60, y: 100 }, S, 640, 720)!;
    expect(corner).toEqual({ x: 0, y: 0, size: Math.floor(WRIST_CROP_SIZE_SW * S) });
    const far = wristCropBox({ x: 638, y: 715 }, { x: 600, y: 600 }, S, 640, 720)!;
    expect(far.x + far.size).toBe(640);
    expect(far.y + far.size).toBe(720);
  });

  it('should shrink to the frame when the frame is smaller than the crop', () => {
    expect(wristCropBox({ x: 50, y: 40 }, null, 400, 100, 80)).toEqual({ x: 10, y: 0, size: 80 });
  });

  it('should give no crop for a tiny person', () => {
    expect(
      wristCropBox({ x: 50, y: 40 }, null, (MIN_WRIST_CROP_PX - 1) / WRIST_CROP_SIZE_SW, 640, 480),
    ).toBeNull();
  });

  it('should return integer pixels', () => {
    const box = wristCropBox({ x: 123.4, y: 234.5 }, { x: 100.1, y: 150.7 }, 97.3, 640, 480)!;
    expect([box.x, box.y, box.size].every(Number.isInteger)).toBe(true);
  });
});

describe('wristCrops', () => {
  it('should crop both wrists when the detector found no hand', () => {
    const crops = wristCrops(observation());
    expect(crops.map((c) => c.side)).toEqual(['left', 'right']);
    const left = crops[0];
    // The person's left wrist (368, 400), forearm pointing down: the crop contains it.
    expect(left.x).toBeLessThan(368);
    expect(left.x + left.size).toBeGreaterThan(368);
    expect(left.y).toBeLessThan(400);
    expect(left.y + left.size).toBeGreaterThan(400 + WRIST_CROP_SHIFT_SW * SHOULDER_WIDTH);
  });

  it('should skip a wrist that already has an accepted hand', () => {
    expect(wristCrops(observation([hand(368, 400)])).map((c) => c.side)).toEqual(['right']);
    expect(wristCrops(observation([hand(368, 400), hand(232, 400)]))).toEqual([]);
  });

  it('should still crop a wrist whose only nearby "hand" the analytics reject', () => {
    // Low score, or on the face: neither vouches for the wrist.
    expect(wristCrops(observation([hand(368, 400, 0.3)])).map((c) => c.side)).toEqual(['left', 'right']);
    const nearFace = observation([hand(320, 180)], { left_wrist: keypoint(330, 190) });
    expect(wristCrops(nearFace).map((c) => c.side)).toEqual(['left', 'right']);
  });

  it('should cost nothing without visible wrists: head-and-shoulder shots, low wrist scores, no body', () => {
    expect(wristCrops(observation([], { left_wrist: undefined, right_wrist: undefined }))).toEqual([]);
    expect(
      wristCrops(
        observation([], { left_wrist: keypoint(368, 400, 0.25), right_wrist: keypoint(232, 400, 0.1) }),
      ),
    ).toEqual([]);
    expect(wristCrops({ ...observation(), pose: null })).toEqual([]);
  });

  it(`should never ask for more than ${MAX_WRIST_CROPS_PER_FRAME} crops`, () => {
    expect(wristCrops(observation()).length).toBeLessThanOrEqual(MAX_WRIST_CROPS_PER_FRAME);
  });
});

describe('handPassWanted', () => {
  it('should run the hand model with a wrist, or with neither wrist nor face (a close-up), not on a bare talking head', () => {
    const bust = pose({ left_wrist: undefined, right_wrist: undefined });
    const on = { closeups: true };
    expect(handPassWanted(pose(), face(), 720, on)).toBe(true);
    expect(handPassWanted(bust, face(), 720, on)).toBe(false);
    expect(handPassWanted(null, face(), 720, on)).toBe(false);
    expect(handPassWanted(null, null, 720, on)).toBe(true);
    expect(handPassWanted(bust, null, 720, on)).toBe(true);
    expect(handPassWanted(null, null, 720, { closeups: false })).toBe(false);
  });

  it(`should look for hands at wrists on the bottom edge on one sampled frame in ${EDGE_WRIST_HAND_EVERY_NTH}, and at wrists in view on every frame`, () => {
    const passes = (p: FrameObservation['pose'], height: number, f: FrameObservation['face'] = face()) =>
      Array.from({ length: 2 * EDGE_WRIST_HAND_EVERY_NTH }, (_, i) =>
        handPassWanted(p, f, height, { closeups: true, sampleIndex: i }),
      );
    const edge = [true, ...Array<boolean>(EDGE_WRIST_HAND_EVERY_NTH - 1).fill(false)];
    expect(passes(edgeBust, BUST_HEIGHT)).toEqual([...edge, ...edge]);
    // The same pose in a taller frame: the wrists are in view, every frame.
    expect(passes(edgeBust, 720)).toEqual(Array(2 * EDGE_WRIST_HAND_EVERY_NTH).fill(true));
    // No face: perhaps a close-up, every frame as before.
    expect(passes(edgeBust, BUST_HEIGHT, null)).toEqual(Array(2 * EDGE_WRIST_HAND_EVERY_NTH).fill(true));
    // A frame that is not one of a clip's samples (a still image, a direct call) is always searched.
    expect(handPassWanted(edgeBust, face(), BUST_HEIGHT, { closeups: true })).toBe(true);
    // 1: every frame, the schedule before issue #37.
    expect(
      handPassWanted(edgeBust, face(), BUST_HEIGHT, { closeups: true, sampleIndex: 1, edgeEveryNth: 1 }),
    ).toBe(true);
  });
});

describe('wristView', () => {
  it('should call wrists on the bottom edge without their elbows "edge", and any other seen wrist "clear"', () => {
    expect(wristView(edgeBust, BUST_HEIGHT)).toBe('edge');
    // An elbow seen: the forearm is in the frame, so is the wrist.
    expect(
      wristView(
        { ...edgeBust, keypoints: { ...edgeBust.keypoints, left_elbow: keypoint(365, 230) } },
        BUST_HEIGHT,
      ),
    ).toBe('clear');
    // One wrist above the band is enough.
    const high = {
      ...edgeBust,
      keypoints: {
        ...edgeBust.keypoints,
        left_wrist: keypoint(330, BUST_HEIGHT - EDGE_WRIST_BAND_SW * SHOULDER_WIDTH - 1, 0.35),
      },
    };
    expect(wristView(high, BUST_HEIGHT)).toBe('clear');
    expect(wristView(pose(), 720)).toBe('clear');
    expect(wristView(pose({ left_wrist: undefined, right_wrist: undefined }), 720)).toBe('none');
    expect(wristView(null, 720)).toBe('none');
  });
});

describe('handSearchWorthwhile', () => {
  it('should search when a body shows a wrist', () => {
    expect(handSearchWorthwhile(pose())).toBe(true);
    expect(handSearchWorthwhile(pose({ left_wrist: undefined }))).toBe(true);
  });

  it('should not search without a wrist the analytics trust, or without a body', () => {
    expect(handSearchWorthwhile(pose({ left_wrist: undefined, right_wrist: undefined }))).toBe(false);
    expect(
      handSearchWorthwhile(
        pose({ left_wrist: keypoint(368, 400, 0.29), right_wrist: keypoint(232, 400, 0.1) }),
      ),
    ).toBe(false);
    expect(handSearchWorthwhile(null)).toBe(false);
    // Wrists but no shoulder: no body frame, so no hand could be kept.
    expect(handSearchWorthwhile(pose({ left_shoulder: undefined, right_shoulder: undefined }))).toBe(false);
  });

  // The skip must never drop a hand the analytics would keep: wherever it says "no", judgeHand
  // rejects any hand, even one lying exactly on a (low-score) wrist.
  it('should say no only where judgeHand rejects every hand', () => {
    const cases = [
      pose({ left_wrist: undefined, right_wrist: undefined }),
      pose({ left_wrist: keypoint(368, 400, 0.299), right_wrist: keypoint(232, 400, 0.05) }),
      pose({ left_shoulder: undefined, right_shoulder: undefined }),
      { ...pose(), score: 0.09 },
      null,
    ];
    for (const p of cases) {
      expect(handSearchWorthwhile(p)).toBe(false);
      for (const [x, y] of [
        [368, 400],
        [232, 400],
        [300, 300],
      ]) {
        const verdict = judgeHand(compactHand(hand(x, y + 60))!, bodyFrame(p), null);
        expect(verdict, JSON.stringify(p)).not.toHaveProperty('side');
      }
    }
  });
});

describe('pickCropHand', () => {
  const o = observation();
  const [leftCrop, rightCrop] = wristCrops(o);

  it("should keep the best hand on the crop's wrist, with that side, marked as from a wrist crop", () => {
    const picked = pickCropHand([hand(368, 400, 0.7), hand(370, 402, 0.8)], leftCrop, o);
    expect(picked).toMatchObject({ side: 'left', score: 0.8, source: 'wrist-crop' });
    expect(picked!.landmarks).toHaveLength(21);
  });

  it('should drop hands the analytics would reject or give to the other wrist', () => {
    expect(pickCropHand([hand(368, 400, 0.4)], leftCrop, o)).toBeNull();
    expect(pickCropHand([hand(232, 400)], leftCrop, o)).toBeNull(); // the other arm's hand
    expect(pickCropHand([hand(232, 400)], rightCrop, o)).toMatchObject({ side: 'right' });
    expect(pickCropHand([hand(300, 150)], leftCrop, o)).toBeNull(); // on the face
    expect(pickCropHand([], leftCrop, o)).toBeNull();
  });
});

describe('handsFromCrop', () => {
  it('should move box and landmarks from crop to frame pixels and keep z', () => {
    const found = [
      {
        score: 0.9,
        label: 'point',
        box: [10, 20, 30, 40] as [number, number, number, number],
        keypoints: [
          [1, 2, -0.5],
          [3, 4],
        ] as Array<[number, number, number?]>,
      },
    ];
    const [moved] = handsFromCrop(found, { x: 100, y: 200, size: 150 });
    expect(moved.box).toEqual([110, 220, 30, 40]);
    expect(moved.keypoints).toEqual([
      [101, 202, -0.5],
      [103, 204],
    ]);
    expect(moved).toMatchObject({ score: 0.9, label: 'point' });
  });
});
