/**
 * @module containers/media/engines/frame-pipeline/plan
 * Pure planning of a render: output geometry, frame rate, duration and how the video is fitted
 * to new speech. No I/O, so every rule here is unit-testable from plain numbers.
 */
import type { ProbeResult, VideoColor } from '../../../../src/contract/media.js';

/** Longest output side in pixels. Bigger sources are scaled down (aspect kept) to bound CPU time. */
export const MAX_OUTPUT_SIDE_PX = 1920;
/** Frame-rate cap; sources above it are resampled down. */
export const MAX_OUTPUT_FPS = 60;
/** Used when the source does not state a usable frame rate. */
export const FALLBACK_FPS = 25;

export type FitMode =
  /** No new speech: the source plays once with its own audio. */
  | 'source'
  /** Speech shorter than (or as long as) the source: the video is cut at the speech's end. */
  | 'trim'
  /** Speech longer than the source: the source loops (restarts) until the speech ends. */
  | 'loop';

export interface RenderPlan {
  width: number;
  height: number;
  fps: number;
  /** Output duration in seconds (= speech duration when speech is given). */
  durationSec: number;
  fit: FitMode;
  /** Source frames per output frame are identical (no resampling) when true. */
  sourceHasAudio: boolean;
  /**
   * Source pixels decoded per output pixel encoded (the source's width × height × frame rate over
   * the output's): 1 when the video keeps its size and rate, more when the render scales it down
   * or drops frames.
   */
  decodeLoad: number;
  /**
   * The source's colour description. The frames path hands the encoder raw pictures, which carry
   * none: it tags them with this (the decoder keeps the source's range and matrix as they are).
   */
  color?: VideoColor;
}

/** Plans the output from the source probe and the new speech's duration (null: none). */
export function planRender(source: ProbeResult, speechDurationSec: number | null): RenderPlan {
  const v = source.video;
  if (!v) throw new Error('planRender: source has no video stream');
  const rotated = Math.abs(v.rotation) % 180 === 90;
  // Square pixels out, as players show the source: anamorphic video (DV, DVD, broadcast SD) is
  // stored narrower or wider than it is shown, and the encoder is handed plain pictures.
  const sar = v.sar ?? 1;
  let w = rotated ? v.height / sar : v.width * sar;
  let h = rotated ? v.width : v.height;
  const scale = Math.min(1, MAX_OUTPUT_SIDE_PX / Math.max(w, h));
  // x264 with yuv420p needs even sides.
  w = Math.max(2, Math.round((w * scale) / 2) * 2);
  h = Math.max(2, Math.round((h * scale) / 2) * 2);
  const fps = v.fps > 0 && Number.isFinite(v.fps) ? Math.min(v.fps, MAX_OUTPUT_FPS) : FALLBACK_FPS;
  const sourceDur = source.duration_sec;
  const outFps = roundFps(fps);
  const decodeLoad = (v.width * v.height * Math.max(fps, v.fps || 0)) / (w * h * outFps);
  const common = {
    width: w,
    height: h,
    fps: outFps,
    sourceHasAudio: !!source.audio,
    decodeLoad,
    color: v.color,
  };
  if (speechDurationSec === null) return { ...common, durationSec: sourceDur, fit: 'source' };
  return {
    ...common,
    durationSec: speechDurationSec,
    fit: speechDurationSec > sourceDur ? 'loop' : 'trim',
  };
}

/** Keeps NTSC rates exact enough (29.97) while dropping float noise. */
function roundFps(fps: number): number {
  return Math.round(fps * 1000) / 1000;
}

/** Number of output frames for a plan (what the frame pipeline must produce). */
export const frameCount = (plan: RenderPlan) => Math.max(1, Math.round(plan.durationSec * plan.fps));
