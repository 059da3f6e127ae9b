/**
 * @module
 * Reads what ffmpeg says about its input from its stderr log, so one ffmpeg run both
 * probes and decodes (no separate ffprobe pass over the bytes).
 */

/** What the input container holds, as ffmpeg printed it while opening the input. */
export interface InputStreams {
  /** Number of audio streams. */
  audio: number;
  /** Number of video streams (cover art counts: it is a video stream to ffmpeg). */
  video: number;
  /** Container duration in seconds, when ffmpeg printed one (`Duration: N/A` gives undefined). */
  durationSec?: number;
}

const STREAM_LINE = /^\s*Stream #0:\d+.*?: (Audio|Video|Subtitle|Data|Attachment):/;
const DURATION_LINE = /^\s*Duration: (\d+):(\d{2}):(\d{2}(?:\.\d+)?)/;
// ffmpeg prints "Input #0" then its streams, then "Output #0"/"Stream mapping" (or an error).
const END_OF_INPUT_SECTION = /^(Output #0|Stream mapping:)/;

/**
 * Parses the input section of an ffmpeg log (loglevel `info`).
 *
 * @example
 * parseInputStreams(['Input #0, mov,mp4 …', '  Duration: 00:00:05.04, …',
 *   '  Stream #0:0[0x1](und): Video: h264 …', '  Stream #0:1[0x2](und): Audio: aac …'])
 * // → { audio: 1, video: 1, durationSec: 5.04 }
 */
export function parseInputStreams(lines: readonly string[]): InputStreams {
  const result: InputStreams = { audio: 0, video: 0 };
  let inInput = false;
  for (const line of lines) {
    if (line.startsWith('Input #0')) {
      inInput = true;
      continue;
    }
    if (!inInput) continue;
    if (END_OF_INPUT_SECTION.test(line)) break;
    const duration = DURATION_LINE.exec(line);
    if (duration) {
      result.durationSec = Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3]);
      continue;
    }
    const stream = STREAM_LINE.exec(line);
    if (stream?.[1] === 'Audio') result.audio += 1;
    else if (stream?.[1] === 'Video') result.video += 1;
  }
  return result;
}
