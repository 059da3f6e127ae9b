/**
 * @module analytics/delivery/loudness
 * Loudness of speech over time: its variation and the stretches that are too quiet.
 *
 * Level = unweighted RMS in dBFS (the prosody energy track), power-averaged over the voiced
 * frames of 0.4 s blocks — the "momentary" block of EBU R128 loudness, without its K-weighting
 * (speech energy sits where K-weighting is nearly flat). Voiced frames only, so pauses and
 * breaths inside a block do not pull its level down.
 */
import type { DeliveryLoudness } from '../../contract/delivery';
import type { ProsodyTrack, TimeSegment } from '../../contract/media';
import { quantile, roundOrNull, spanMask, stdDev } from './frames';

/** Block length, s (EBU R128 momentary loudness window). */
export const BLOCK_SEC = 0.4;
/** Hop between blocks, s. */
export const HOP_SEC = 0.1;
/** A block needs this much voiced speech to have a level, s. */
export const MIN_VOICED_IN_BLOCK_SEC = 0.1;
/**
 * A block this many dB below the speech level is quiet: 10 dB is perceived as about half as loud
 * (Stevens' sone scale, loudness doubles per +10 phon).
 */
export const QUIET_BELOW_DB = 10;
/**
 * Hysteresis: a quiet stretch extends over neighbouring blocks at least this many dB below the
 * speech level, so its edges follow the passage rather than the threshold's flicker.
 */
export const QUIET_EDGE_BELOW_DB = 6;
/** Shortest quiet stretch reported, s (a word or two is normal stress, not a quiet passage). */
export const MIN_QUIET_SEC = 1.0;
/** Quiet blocks further apart than this (a long pause, speech/pauses LONG_PAUSE_SEC) are two stretches, s. */
export const MAX_QUIET_GAP_SEC = 1.0;

interface Block {
  start: number;
  end: number;
  /** Mean power of its voiced frames (linear). */
  power: number;
  db: number;
}

/** Levels of the blocks that hold enough voiced speech, in time order. */
export function speechBlocks(track: ProsodyTrack, spans?: readonly TimeSegment[]): Block[] {
  const f = track.frame_sec;
  const mask = spanMask(track, spans);
  const voiced = track.pitch_hz.map((p, i) => mask[i] && p !== null && p > 0);
  const len = Math.max(1, Math.round(BLOCK_SEC / f));
  const hop = Math.max(1, Math.round(HOP_SEC / f));
  const need = Math.max(1, Math.round(MIN_VOICED_IN_BLOCK_SEC / f));
  const out: Block[] = [];
  for (let a = 0; a + len <= voiced.length; a += hop) {
    let n = 0;
    let power = 0;
    for (let i = a; i < a + len; i++) {
      if (!voiced[i]) continue;
      n++;
      power += 10 ** (track.energy_db[i] / 10);
    }
    if (n < need) continue;
    power /= n;
    out.push({ start: a * f, end: (a + len) * f, power, db: 10 * Math.log10(power) });
  }
  return out;
}

/**
 * Loudness numbers over voiced speech inside `spans` (all voiced frames without spans):
 * the speech level (power mean of the blocks, the "active speech level" of ITU-T P.56 in spirit:
 * dominated by the speaker's normal voice, so a quiet passage hardly moves it), the standard
 * deviation and p5–p95 range of block levels (dB), and the stretches of at least
 * {@link MIN_QUIET_SEC} whose blocks are {@link QUIET_BELOW_DB} dB or more below the speech
 * level, widened over neighbouring blocks {@link QUIET_EDGE_BELOW_DB} dB below it (`level_db` =
 * the stretch's level relative to the speech level).
 */
export function loudnessDelivery(
  track: ProsodyTrack,
  spans?: readonly TimeSegment[],
  quietBelowDb = QUIET_BELOW_DB,
): DeliveryLoudness {
  const blocks = speechBlocks(track, spans);
  const sorted = blocks.map((b) => b.db).sort((a, b) => a - b);
  const level = blocks.length
    ? 10 * Math.log10(blocks.reduce((s, b) => s + b.power, 0) / blocks.length)
    : NaN;
  const quiet: DeliveryLoudness['quiet_stretches'] = [];
  let run: Block[] = [];
  const flush = () => {
    const core = run.filter((b) => b.db < level - quietBelowDb);
    if (core.length > 0 && core[core.length - 1].end - core[0].start >= MIN_QUIET_SEC) {
      const power = run.reduce((s, b) => s + b.power, 0) / run.length;
      quiet.push({
        start: Math.round(run[0].start * 1000) / 1000,
        end: Math.round(run[run.length - 1].end * 1000) / 1000,
        level_db: roundOrNull(10 * Math.log10(power) - level, 1) ?? 0,
      });
    }
    run = [];
  };
  for (const b of blocks) {
    const last = run[run.length - 1];
    // A long pause between quiet blocks ends the stretch.
    if (last && b.start > last.end + MAX_QUIET_GAP_SEC) flush();
    if (b.db < level - Math.min(quietBelowDb, QUIET_EDGE_BELOW_DB)) run.push(b);
    else flush();
  }
  flush();
  return {
    measure: 'rms_dbfs',
    level_dbfs: roundOrNull(level, 1),
    variation_db: sorted.length >= 2 ? roundOrNull(stdDev(sorted), 2) : null,
    range_db: sorted.length >= 2 ? roundOrNull(quantile(sorted, 0.95) - quantile(sorted, 0.05), 2) : null,
    quiet_below_db: quietBelowDb,
    quiet_stretches: quiet,
  };
}
