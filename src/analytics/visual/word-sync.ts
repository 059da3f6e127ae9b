/**
 * @module analytics/visual/word-sync
 * `gesture_summary_word_sync`: what the body and face did while a speech event (filler, pause,
 * positive or negative word) was happening.
 */
import type { TimeSegment } from '../../contract/media.js';
import type { VisualSample, VisualSection } from '../../contract/result.js';
import { finite, mode } from './math.js';
import { sampleInterval } from './summary.js';
import type { SpeechEvents } from './types.js';

type Sync = VisualSection['gesture_summary_word_sync'];
type EventSummary = Sync['filler_summary'];

/**
 * Indices of the samples an event list selects: every sample whose time lies inside a span
 * (inclusive); a span with no sample inside (shorter than the sampling interval) takes its single
 * nearest sample if that is within half a sample interval of the span.
 */
export function framesInEvents(times: readonly number[], spans: readonly TimeSegment[]): number[] {
  const half = sampleInterval(times) / 2;
  const picked = new Set<number>();
  for (const span of spans ?? []) {
    if (!span || !Number.isFinite(span.start) || !Number.isFinite(span.end)) continue;
    const start = Math.min(span.start, span.end);
    const end = Math.max(span.start, span.end);
    let inside = false;
    let nearest = -1;
    let nearestGap = Infinity;
    times.forEach((t, i) => {
      if (t >= start && t <= end) {
        picked.add(i);
        inside = true;
      }
      const gap = t < start ? start - t : t > end ? t - end : 0;
      if (gap < nearestGap) {
        nearestGap = gap;
        nearest = i;
      }
    });
    if (!inside && nearest >= 0 && nearestGap <= half) picked.add(nearest);
  }
  return [...picked].sort((a, b) => a - b);
}

/**
 * Summary of the selected samples, or `{}` when none: `hands_on_hips` is the FRACTION (0..1) of
 * them with hands on hips; the label fields are the most common value (ties: earliest);
 * `frame_times` lists their times.
 */
export function summarizeFrames(samples: readonly VisualSample[]): EventSummary {
  if (samples.length === 0) return {};
  const most = (pick: (s: VisualSample) => string) => mode(samples.map(pick)) ?? 'unknown';
  return {
    hands_on_hips: finite(samples.filter((s) => s.hands_on_hips).length / samples.length),
    left_hand_level_label: most((s) => s.left_hand_level_label),
    right_hand_level_label: most((s) => s.right_hand_level_label),
    gesture_left: most((s) => s.gesture_left),
    gesture_right: most((s) => s.gesture_right),
    emotion: most((s) => s.emotion),
    frame_times: samples.map((s) => s.time),
  };
}

/** The four event summaries over a time-sorted sample series. */
export function wordSync(samples: readonly VisualSample[], events: SpeechEvents): Sync {
  const times = samples.map((s) => s.time);
  const of = (spans: readonly TimeSegment[] | undefined) =>
    summarizeFrames(framesInEvents(times, spans ?? []).map((i) => samples[i]));
  return {
    filler_summary: of(events?.fillers),
    pause_summary: of(events?.pauses),
    sentiment_positive_summary: of(events?.positive),
    sentiment_negative_summary: of(events?.negative),
  };
}
