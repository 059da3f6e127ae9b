/**
 * @module containers/media/core/media-limits
 * What media the service accepts, as pure rules over a probe whose duration was measured from
 * the content, and the plain messages users get. Deterministic input problems are answered
 * 422 at once (the Worker fails the job without retries); nothing here mentions internal
 * stream numbers or ffmpeg's own words.
 */
import type { MediaProblemCode, ProbeResult } from '../../../src/contract/media.js';
import { MEDIA_HEADERS } from '../../../src/contract/media-protocol.js';
import { mediaConfig } from './config.js';
import { FfmpegError, WorkLimitError } from './ffmpeg.js';

/** Shorter media has no frames or speech worth analysing (and is what a forged time base looks like). */
export const MIN_MEDIA_DURATION_SEC = 0.1;
/** Smallest decoded picture side: below it there is no person to see, and encoders refuse 1-pixel sides. */
export const MIN_VIDEO_SIDE_PX = 16;
/** Largest decoded picture side (8K): beyond it one decoded frame alone is hundreds of MB. */
export const MAX_VIDEO_SIDE_PX = 8192;
/** A video whose frames come faster than this has a forged or broken time base. */
export const MAX_SOURCE_FPS = 1000;

export interface MediaLimits {
  maxDurationSec: number;
}

/** The limits of one request: the Worker's header, else `MAX_MEDIA_DURATION_SEC` (its default: the contract's). */
export function mediaLimitsFrom(headers: Headers): MediaLimits {
  const fromHeader = Number(headers.get(MEDIA_HEADERS.maxMediaDurationSec));
  const maxDurationSec = fromHeader > 0 ? fromHeader : mediaConfig().core.maxMediaDurationSec;
  return { maxDurationSec };
}

/** A deterministic problem with the input: a stable code and a message a user can act on. */
export interface MediaProblem {
  code: MediaProblemCode;
  message: string;
}

/**
 * Pure: what is wrong with `probe` for a job, or null. `needsVideo` for processing (a render).
 * @example mediaProblem(probe, { maxDurationSec: 14400 }) // → null, or { code: 'too_long', message }
 */
export function mediaProblem(
  probe: ProbeResult,
  limits: MediaLimits,
  needsVideo = false,
): MediaProblem | null {
  const v = probe.video;
  if (!v && !probe.audio) return { code: 'no_streams', message: 'the file has no audio or video stream' };
  if (v && /(^|,)image2|_pipe$/.test(probe.format)) {
    return { code: 'still_image', message: 'the file is a still image, not a video' };
  }
  if (needsVideo && !v) return { code: 'no_streams', message: 'the file has no video stream to process' };
  if (!(probe.duration_sec >= MIN_MEDIA_DURATION_SEC)) {
    return {
      code: 'too_short',
      message: `the media has no playable content longer than ${MIN_MEDIA_DURATION_SEC} s (empty, truncated, or a single frame)`,
    };
  }
  if (probe.duration_sec > limits.maxDurationSec) {
    return {
      code: 'too_long',
      message: `the media is ${formatDuration(probe.duration_sec)} long; the limit is ${formatDuration(limits.maxDurationSec)}`,
    };
  }
  if (v) {
    if (Math.min(v.width, v.height) < MIN_VIDEO_SIDE_PX) {
      return {
        code: 'too_small',
        message: `the video is ${v.width}×${v.height} pixels; at least ${MIN_VIDEO_SIDE_PX}×${MIN_VIDEO_SIDE_PX} is needed`,
      };
    }
    if (Math.max(v.width, v.height) > MAX_VIDEO_SIDE_PX) {
      return {
        code: 'too_large',
        message: `the video is ${v.width}×${v.height} pixels; at most ${MAX_VIDEO_SIDE_PX} pixels a side is accepted`,
      };
    }
    if (v.fps > MAX_SOURCE_FPS) {
      return {
        code: 'bad_frame_rate',
        message: `the video's frame timing is broken (${Math.round(v.fps)} frames per second declared)`,
      };
    }
  }
  return null;
}

export function formatDuration(sec: number): string {
  if (sec < 120) return `${Math.round(sec * 10) / 10} s`;
  if (sec < 7200) return `${Math.round(sec / 60)} min`;
  return `${Math.round((sec / 3600) * 10) / 10} h`;
}

/**
 * Pure: a plain message for a failed media process. ffmpeg's own last line names internal
 * streams ("stream #1:0") and options; users get what it means for their file instead.
 */
export function plainMediaError(err: unknown, what = 'the media'): string {
  if (err instanceof WorkLimitError) return err.message;
  if (!(err instanceof FfmpegError)) return `${what} could not be processed`;
  const tail = err.stderrTail;
  if (/No space left|Cannot allocate memory|Resource temporarily unavailable/i.test(tail))
    return `${what} could not be processed: the media service ran out of resources`;
  if (
    /moov atom not found|Invalid data found|invalid frame|error while decoding|corrupt|truncat|Invalid NAL|missing picture|header damaged|no frame/i.test(
      tail,
    )
  ) {
    return `${what} is damaged or truncated and could not be decoded`;
  }
  if (
    /processing the decoded data|reinitializing filters|Failed to configure|Invalid argument|not divisible|width|height|dimension/i.test(
      tail,
    )
  ) {
    return `${what} could not be converted: its picture size, frame rate or format is not usable`;
  }
  return `${what} could not be decoded`;
}

/** Whether a failed process is worth retrying (machine trouble), as opposed to bad input. */
export function isTransientMediaFailure(err: unknown): boolean {
  if (err instanceof WorkLimitError) return false;
  if (!(err instanceof FfmpegError)) return true;
  return (
    err.exitCode === null ||
    /No space left|Cannot allocate memory|Resource temporarily unavailable/i.test(err.stderrTail)
  );
}
