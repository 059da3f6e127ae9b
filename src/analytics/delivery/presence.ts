/**
 * @module analytics/delivery/presence
 * Eye contact and hand gestures from the visual time series (`merged_visual_time_series`).
 */
import type { DeliveryEyeContact, DeliveryGestures } from '../../contract/delivery';
import type { VisualSample } from '../../contract/result';
import { frameDurations } from '../visual/summary';

type EyeSample = Pick<VisualSample, 'time' | 'gaze_direction'>;
type HandSample = Pick<
  VisualSample,
  'left_hand_level_label' | 'right_hand_level_label' | 'gesture_left' | 'gesture_right'
>;

const r3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Eye contact: share of samples with a face (gaze measured, `gaze_direction` not null) whose
 * gaze is `center` (within ±10° of the camera on both axes, visual DEFINITIONS.md). The longest
 * look-away is the longest run of face samples off centre, from its first sample to the next
 * sample (each sample stands for the time to the next, capped as in `posture_summary`); samples
 * without a face neither break nor extend a run.
 *
 * @example
 * eyeContact(result.merged_visual_time_series).share // 0.82
 */
export function eyeContact(samples: readonly EyeSample[]): DeliveryEyeContact {
  const sorted = samples.filter((s) => Number.isFinite(s.time)).sort((a, b) => a.time - b.time);
  const durations = frameDurations(sorted.map((s) => s.time));
  let faces = 0;
  let contact = 0;
  let best: DeliveryEyeContact['longest_look_away'] = null;
  let run: { start: number; end: number } | null = null;
  const close = () => {
    if (run && (!best || run.end - run.start > best.duration))
      best = { start: r3(run.start), end: r3(run.end), duration: r3(run.end - run.start) };
    run = null;
  };
  sorted.forEach((s, i) => {
    if (s.gaze_direction === null) return;
    faces++;
    if (s.gaze_direction === 'center') {
      contact++;
      close();
      return;
    }
    const end = s.time + durations[i];
    if (run) run.end = end;
    else run = { start: s.time, end };
  });
  close();
  return {
    share: faces > 0 ? Math.round((contact / faces) * 1000) / 1000 : null,
    samples_with_face: faces,
    longest_look_away: best,
  };
}

/**
 * Hands: share of samples with at least one hand seen (a level label other than `not_visible`,
 * or a gesture), and share with at least one hand in a gesture shape (`open_hand` or
 * `pinch_or_point`). Null without samples.
 */
export function gestureShares(samples: readonly HandSample[]): DeliveryGestures {
  if (samples.length === 0) return { hand_visible_share: null, gesture_share: null };
  const seen = samples.filter(
    (s) =>
      s.left_hand_level_label !== 'not_visible' ||
      s.right_hand_level_label !== 'not_visible' ||
      s.gesture_left !== 'none' ||
      s.gesture_right !== 'none',
  ).length;
  const gesturing = samples.filter((s) => s.gesture_left !== 'none' || s.gesture_right !== 'none').length;
  const share = (n: number) => Math.round((n / samples.length) * 1000) / 1000;
  return { hand_visible_share: share(seen), gesture_share: share(gesturing) };
}
