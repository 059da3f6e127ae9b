/**
 * @module analytics/delivery/pitch
 * Pitch of voiced speech for coaching: median, range and variation in semitones, monotone flag.
 * The pitch track is the one `speaking_style` uses (YIN, analytics/speech/prosody).
 */
import type { DeliveryPitch } from '../../contract/delivery';
import type { ProsodyTrack, TimeSegment } from '../../contract/media';
import { summarizeProsody } from '../speech/prosody';
import { MONOTONE_ST } from '../speech/style';
import { quantile, roundOrNull, spanMask } from './frames';

/** Range = spread between these quantiles of voiced pitch (robust to stray octave errors). */
export const RANGE_QUANTILES = [0.05, 0.95] as const;

/**
 * Pitch numbers over voiced frames inside `spans` (all voiced frames without spans).
 * `variation_st` is the semitone standard deviation around the median (frames more than an
 * octave away ignored), the same measure and threshold ({@link MONOTONE_ST}, Hincks 2005) as the
 * `monotone` speaking style.
 *
 * @example
 * pitchDelivery(track, vadSegments).median_hz // e.g. 118.2
 */
export function pitchDelivery(
  track: ProsodyTrack,
  spans?: readonly TimeSegment[],
  monotoneBelowSt = MONOTONE_ST,
): DeliveryPitch {
  const mask = spanMask(track, spans);
  const masked: ProsodyTrack = {
    frame_sec: track.frame_sec,
    pitch_hz: track.pitch_hz.map((p, i) => (mask[i] ? p : null)),
    energy_db: track.energy_db,
  };
  const summary = summarizeProsody(masked);
  const median = summary.median_pitch_hz;
  let range: number | null = null;
  if (median !== null) {
    const st = masked.pitch_hz
      .filter((p): p is number => p !== null && p > 0)
      .map((p) => 12 * Math.log2(p / median))
      .filter((s) => Math.abs(s) <= 12)
      .sort((a, b) => a - b);
    range = quantile(st, RANGE_QUANTILES[1]) - quantile(st, RANGE_QUANTILES[0]);
  }
  const variation = summary.pitch_std_st;
  return {
    voiced_sec: roundOrNull(summary.voiced_sec, 2) ?? 0,
    median_hz: roundOrNull(median, 1),
    range_st: roundOrNull(range, 2),
    variation_st: roundOrNull(variation, 2),
    monotone: variation === null ? null : variation < monotoneBelowSt,
    monotone_below_st: monotoneBelowSt,
  };
}
