/**
 * @module analytics/visual/summary
 * `gesture_summary` and `posture_summary`, and the frame durations they weigh by.
 */
import type { VisualSection } from '../../contract/result.js';
import { median } from './math.js';
import type { FrameFeatures } from './timeline.js';
import type { PostureUnit } from './types.js';

/** Median gap between consecutive frame times (s); 0 with fewer than two distinct times. */
export function sampleInterval(times: readonly number[]): number {
  const gaps: number[] = [];
  for (let i = 1; i < times.length; i++) {
    const g = times[i] - times[i - 1];
    if (g > 0 && Number.isFinite(g)) gaps.push(g);
  }
  return median(gaps);
}

/**
 * Seconds each (time-sorted) frame stands for: the gap to the next frame, capped at two sample
 * intervals so a detection gap is not credited to the frame before it; the last frame gets one
 * interval.
 */
export function frameDurations(times: readonly number[]): number[] {
  const interval = sampleInterval(times);
  return times.map((t, i) =>
    i + 1 < times.length ? Math.min(Math.max(0, times[i + 1] - t), 2 * interval) : interval,
  );
}

/** Hand-frames per gesture label: each frame adds one count per hand (sum = 2 × frames). */
export function gestureSummary(features: readonly FrameFeatures[]): VisualSection['gesture_summary'] {
  const out = { open_hand: 0, pinch_or_point: 0, none: 0 };
  for (const f of features) {
    out[f.gesture_left] += 1;
    out[f.gesture_right] += 1;
  }
  return out;
}

const POSTURE_KEYS = [
  'raised_hand',
  'hands_on_hips',
  'left_hand_high',
  'right_hand_high',
  'left_hand_forward',
  'right_hand_forward',
] as const;

/**
 * Time spent in each posture: whole seconds (frame durations summed, then rounded) or the number
 * of sampled frames.
 *
 * @param unit @default 'seconds'
 */
export function postureSummary(
  features: readonly FrameFeatures[],
  unit: PostureUnit = 'seconds',
): VisualSection['posture_summary'] {
  const durations = unit === 'seconds' ? frameDurations(features.map((f) => f.time)) : features.map(() => 1);
  type Key = (typeof POSTURE_KEYS)[number];
  const totals = Object.fromEntries(POSTURE_KEYS.map((k) => [k, 0])) as Record<Key, number>;
  features.forEach((f, i) => {
    for (const k of POSTURE_KEYS) if (f[k]) totals[k] += durations[i];
  });
  for (const k of POSTURE_KEYS) totals[k] = Math.round(totals[k]);
  return totals;
}
