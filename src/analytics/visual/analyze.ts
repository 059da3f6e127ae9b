/**
 * @module analytics/visual/analyze
 * The visual section of an analysis result from per-frame observations and speech events.
 */
import type { VisionFrame } from '../../contract/media.js';
import { VIDEO_SECTION_MARKER, type VisualSection } from '../../contract/result.js';
import { normaliseEyeOpenness } from './eyes.js';
import { median } from './math.js';
import type { MouthBaseline } from './mouth.js';
import { gestureSummary, postureSummary } from './summary.js';
import { frameFeatures, toVisualSample } from './timeline.js';
import type { SpeechEvents, VisualOptions } from './types.js';
import { wordSync } from './word-sync.js';

/** The person's neutral mouth over the clip (medians over frames with a measurable mouth). */
export function mouthBaseline(mouths: ReadonlyArray<{ width: number; lift: number } | null>): MouthBaseline {
  const seen = mouths.filter((m): m is { width: number; lift: number } => m !== null);
  return { width: median(seen.map((m) => m.width)), lift: median(seen.map((m) => m.lift)) };
}

/**
 * Computes the `VisualSection` (it passes `VisualSection.parse()`): one time-series element per
 * frame in time order, the gesture and posture summaries, and the speech-event correlation.
 *
 * @param frames sampled frames, full or compact (`compactFrame`; same result), any order (sorted
 *   by time here; non-finite times are dropped).
 * @param events speech event spans; empty lists give `{}` summaries.
 * @param options see {@link VisualOptions}; all optional.
 * @example
 * const events = { fillers: [{ start: 1.2, end: 1.5 }], pauses: [], positive: [], negative: [] };
 * const visual = analyzeVisual(frames, events);
 * visual.posture_summary.raised_hand; // whole seconds with a raised hand
 */
export function analyzeVisual(
  frames: readonly VisionFrame[],
  events: SpeechEvents,
  options: VisualOptions = {},
): VisualSection {
  const { postureUnit = 'seconds' } = options;
  const sorted = (frames ?? [])
    .filter((f) => f && Number.isFinite(f.time))
    .slice()
    .sort((a, b) => a.time - b.time);
  const features = sorted.map((f) => frameFeatures(f, options));
  const openness = normaliseEyeOpenness(features.map((f) => f.ear));
  const baseline = mouthBaseline(features.map((f) => f.mouth));
  const samples = features.map((f, i) => toVisualSample(f, openness[i], baseline));
  return {
    'Video Section': VIDEO_SECTION_MARKER,
    gesture_summary: gestureSummary(features),
    posture_summary: postureSummary(features, postureUnit),
    merged_visual_time_series: samples,
    gesture_summary_word_sync: wordSync(samples, events),
  };
}
