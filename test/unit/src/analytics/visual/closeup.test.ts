/**
 * Close-up hands: with no wrist in view a hand counts only when it is large in the frame and,
 * with a face in view, not smaller than the face allows (closeup.ts).
 */
import { describe, expect, it } from 'vitest';
import type { CompactHand, FrameObservation } from '../../../../../src/contract/media.js';
import {
  CLOSEUP_MIN_PALM_FRACTION,
  closeupHands,
  judgeCloseupHand,
} from '../../../../../src/analytics/visual/closeup.js';
import { analyzeVisual, compactHand, frameHands } from '../../../../../src/analytics/visual/index.js';
import { face, frame, handLandmarks, pose } from './fixtures.js';

const FRAME = { width: 640, height: 480 };
const ch = (
  palm: number,
  score = 0.9,
  side: CompactHand['side'] = 'unknown',
  centre: [number, number] = [500, 300],
) => ({ side, score, centre, palm, gesture: 'open_hand' }) as CompactHand;
const NO_EVENTS = { fillers: [], pauses: [], positive: [], negative: [] };

describe('judgeCloseupHand', () => {
  it('should accept a confident hand whose palm spans a fifth of the short side, and nothing smaller', () => {
    const edge = CLOSEUP_MIN_PALM_FRACTION * 480;
    expect(judgeCloseupHand(ch(edge), FRAME, null)).toEqual({ accepted: true });
    expect(judgeCloseupHand(ch(edge - 1), FRAME, null)).toEqual({ rejected: 'small' });
    expect(judgeCloseupHand(ch(200, 0.4), FRAME, null)).toEqual({ rejected: 'low_score' });
  });
  it('should reject a hand on the face, or small beside a face in view', () => {
    // Face box 100 px wide: palm must be ≥ 50 px (and ≥ 96 px for the frame).
    const box: [number, number, number, number] = [100, 100, 300, 300];
    expect(judgeCloseupHand(ch(150, 0.9, 'unknown', [200, 200]), FRAME, box)).toEqual({
      rejected: 'in_face',
    });
    expect(judgeCloseupHand(ch(120), FRAME, box)).toEqual({ rejected: 'smaller_than_face' });
    expect(judgeCloseupHand(ch(160), FRAME, box)).toEqual({ accepted: true });
  });
});

describe('closeupHands', () => {
  it('should keep the detector side when given, else the free side, right first', () => {
    expect(closeupHands([ch(120, 0.8, 'left')], FRAME, null)).toMatchObject({
      left: { score: 0.8 },
      right: null,
    });
    expect(closeupHands([ch(120, 0.8)], FRAME, null)).toMatchObject({ left: null, right: { score: 0.8 } });
    const both = closeupHands([ch(120, 0.7, 'right'), ch(120, 0.9, 'right')], FRAME, null);
    expect([both.right?.score, both.left?.score]).toEqual([0.9, 0.7]);
  });
});

describe('close-up hands in the video section', () => {
  // The fixture's open hand at scale 6: a palm of well over 96 px on a 640×480 frame.
  const big: FrameObservation['hands'][number] = {
    side: 'unknown',
    score: 0.9,
    landmarks: handLandmarks('open', 320, 300, 6),
  };
  it('should count an open hand with no body and no face, and not when a wrist is in view far from it', () => {
    expect(compactHand(big)!.palm).toBeGreaterThan(96);
    const alone = analyzeVisual([frame(0, { hands: [big] })], NO_EVENTS);
    expect(alone.gesture_summary.open_hand).toBe(1);
    expect(alone.merged_visual_time_series[0].gesture_right).toBe('open_hand');
    // With a body whose wrists are seen, the body rule decides (the hand is far from both wrists).
    const withBody = frameHands(frame(0, { hands: [big], pose: pose() }));
    expect(withBody).toEqual({ left: null, right: null });
  });
  it('should not count a small hand beside a face (a talking head)', () => {
    const small: FrameObservation['hands'][number] = {
      ...big,
      landmarks: handLandmarks('open', 500, 300, 1),
    };
    expect(
      analyzeVisual([frame(0, { hands: [small], face: face() })], NO_EVENTS).gesture_summary.open_hand,
    ).toBe(0);
  });
});
