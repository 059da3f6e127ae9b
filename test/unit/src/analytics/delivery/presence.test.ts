/**
 * Eye contact and hand shares from hand-made visual samples.
 */
import { describe, expect, it } from 'vitest';
import { eyeContact, gestureShares } from '../../../../../src/analytics/delivery/presence';

const gaze = (dirs: Array<string | null>, step = 0.5) =>
  dirs.map((d, i) => ({ time: i * step, gaze_direction: d }));

describe('eyeContact', () => {
  it('should count centre gaze over samples with a face and find the longest look-away', () => {
    // Faces at 9 of 10 samples; centre at 4 of them. Look-aways: 1.0–2.0 s and 3.0–4.5 s.
    const e = eyeContact(
      gaze(['center', 'center', 'left', 'down', 'center', null, 'up', 'up-left', 'left', 'center']),
    );
    expect(e.samples_with_face).toBe(9);
    expect(e.share).toBeCloseTo(4 / 9, 3);
    expect(e.longest_look_away).toEqual({ start: 3, end: 4.5, duration: 1.5 });
  });
  it('should give null share without faces and no look-away with constant eye contact', () => {
    expect(eyeContact(gaze([null, null]))).toEqual({
      share: null,
      samples_with_face: 0,
      longest_look_away: null,
    });
    expect(eyeContact(gaze(['center', 'center'])).longest_look_away).toBeNull();
  });
});

describe('gestureShares', () => {
  const s = (l: string, r: string, gl = 'none', gr = 'none') => ({
    left_hand_level_label: l,
    right_hand_level_label: r,
    gesture_left: gl,
    gesture_right: gr,
  });
  it('should count samples with a hand seen and samples with a gesture shape', () => {
    const shares = gestureShares([
      s('not_visible', 'not_visible'),
      s('chest', 'not_visible'),
      s('not_visible', 'not_visible', 'open_hand'),
      s('waist', 'chest', 'none', 'pinch_or_point'),
    ]);
    expect(shares).toEqual({ hand_visible_share: 0.75, gesture_share: 0.5 });
    expect(gestureShares([])).toEqual({ hand_visible_share: null, gesture_share: null });
  });
});
