/**
 * Which detected hands are real: a hand must sit on a visible pose wrist, outside the face box;
 * its side is the nearest wrist's. Hand-built landmark sets (see fixtures.ts: shoulder width
 * 120 px, the person's left wrist at image (368, 400), right wrist at (232, 400), face box
 * x 250–350, y 80–200).
 */
import { describe, expect, it } from 'vitest';
import type { FrameObservation } from '../../../../../src/contract/media.js';
import {
  analyzeVisual,
  assignHands,
  bodyFrame,
  compactHand,
  judgeHand,
} from '../../../../../src/analytics/visual/index.js';
import { face, frame, handLandmarks, keypoint, pose } from './fixtures.js';

type Hand = FrameObservation['hands'][number];
const hand = (
  x: number,
  y: number,
  side: Hand['side'] = 'unknown',
  score = 0.9,
  shape: 'open' | 'index' = 'open',
): Hand => ({
  side,
  score,
  // Scale 0.6: a 60 px hand, about half a shoulder width, as on real frames.
  landmarks: handLandmarks(shape, x, y, 0.6),
});
const compact = (h: Hand) => compactHand(h)!;
const FACE_BOX = face().box;
const NO_EVENTS = { fillers: [], pauses: [], positive: [], negative: [] };

describe('judgeHand', () => {
  const body = bodyFrame(pose())!;

  it('should accept a hand on a visible wrist, with the distance of its centre in shoulder widths', () => {
    const verdict = judgeHand(compact(hand(368, 400)), body, FACE_BOX);
    expect(verdict).toMatchObject({ side: 'left' });
    // Box centre of the 0.6-scaled open palm: (368 + 0.6 × (−55 + 31) / 2, 400 − 0.6 × 102 / 2).
    expect((verdict as { distanceSw: number }).distanceSw).toBeCloseTo(Math.hypot(7.2, 30.6) / 120, 4);
  });

  it("should take the side from the nearest wrist, not from the detector's label", () => {
    expect(judgeHand(compact(hand(232, 400, 'left')), body, FACE_BOX)).toMatchObject({ side: 'right' });
    expect(judgeHand(compact(hand(368, 400, 'right')), body, FACE_BOX)).toMatchObject({ side: 'left' });
  });

  it('should reject a hand inside the face box even with a wrist nearby', () => {
    const nearFace = bodyFrame(pose({ left_wrist: keypoint(330, 190) }))!;
    expect(judgeHand(compact(hand(320, 180)), nearFace, FACE_BOX)).toEqual({ rejected: 'in_face' });
    // The same hand is fine when no face was found.
    expect(judgeHand(compact(hand(320, 180)), nearFace, null)).toMatchObject({ side: 'left' });
  });

  it('should reject a hand far from every wrist (more than 0.8 shoulder widths)', () => {
    // A "hand" on a foot or in the background: 1.5 S below the left wrist.
    expect(judgeHand(compact(hand(368, 580)), body, FACE_BOX)).toEqual({ rejected: 'far_from_wrist' });
  });

  it('should reject a hand when the wrists are not seen or seen with a low score', () => {
    // Head-and-shoulders shot: MoveNet reports no wrists at all.
    const bust = bodyFrame(
      pose({ left_wrist: undefined, right_wrist: undefined, left_elbow: undefined, right_elbow: undefined }),
    )!;
    expect(judgeHand(compact(hand(500, 150)), bust, FACE_BOX)).toEqual({ rejected: 'no_wrist' });
    // A wrist guessed at 0.25 does not vouch for a hand (keypoint threshold lowered to let it in).
    const weak = bodyFrame(pose({ left_wrist: keypoint(368, 400, 0.25), right_wrist: undefined }), 0.2)!;
    expect(weak.wrist.left).not.toBeNull();
    expect(judgeHand(compact(hand(368, 400)), weak, FACE_BOX)).toEqual({ rejected: 'no_wrist' });
  });

  it('should reject hands without a body or below the hand score', () => {
    expect(judgeHand(compact(hand(368, 400)), null, FACE_BOX)).toEqual({ rejected: 'no_body' });
    expect(judgeHand(compact(hand(368, 400, 'left', 0.4)), body, FACE_BOX)).toEqual({
      rejected: 'low_score',
    });
    expect(judgeHand(compact(hand(368, 400, 'left', 0.4)), body, FACE_BOX, 0.3)).toMatchObject({
      side: 'left',
    });
  });
});

describe('assignHands', () => {
  it('should give each wrist its hand and keep the higher-scoring one on a clash', () => {
    const body = bodyFrame(pose())!;
    const a = compact(hand(368, 400, 'left', 0.7));
    const b = compact(hand(372, 405, 'right', 0.8));
    const c = compact(hand(232, 400, 'unknown', 0.9, 'index'));
    const got = assignHands([a, b, c], body, FACE_BOX);
    expect(got.left).toBe(b);
    expect(got.right).toBe(c);
    expect(assignHands([a, b, c], null, FACE_BOX)).toEqual({ left: null, right: null });
  });

  it('should skip hands with too few landmarks when compacting', () => {
    expect(
      compactHand({ side: 'left', score: 0.9, landmarks: handLandmarks('open', 0, 0).slice(0, 5) }),
    ).toBeNull();
  });
});

describe('gestures of a talking head', () => {
  it('should report no hand gestures when the detector fires on a head-and-shoulders shot', () => {
    const bust = pose({
      left_wrist: undefined,
      right_wrist: undefined,
      left_elbow: undefined,
      right_elbow: undefined,
    });
    // False hands as seen on real talking-head clips: one beside the head, one on the face.
    const falseHands = [hand(500, 150, 'unknown', 0.8, 'open'), hand(300, 140, 'right', 0.55, 'index')];
    const frames = [0, 0.5, 1].map((t) => frame(t, { pose: bust, face: face(), hands: falseHands }));
    const out = analyzeVisual(frames, NO_EVENTS);
    expect(out.gesture_summary).toEqual({ open_hand: 0, pinch_or_point: 0, none: 6 });
    expect(
      out.merged_visual_time_series.every((s) => s.gesture_left === 'none' && s.gesture_right === 'none'),
    ).toBe(true);
  });
});
