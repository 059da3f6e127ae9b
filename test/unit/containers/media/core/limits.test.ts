/**
 * Bounded work (issue #12): the pure rules. Durations come from the content, media limits give
 * plain messages, budgets follow the real duration, ffmpeg's words never reach users.
 */
import { describe, expect, it } from 'vitest';
import {
  contentDuration,
  cutShortFrom,
  isBitrateGuess,
  pixelAspectOf,
  FfmpegError,
  WorkLimitError,
} from '../../../../../containers/media/core/ffmpeg.js';
import {
  isTransientMediaFailure,
  mediaProblem,
  plainMediaError,
} from '../../../../../containers/media/core/media-limits.js';
import { niceFor, workSeconds } from '../../../../../containers/media/core/work-scope.js';
import { blurRadius } from '../../../../../containers/media/engines/frame-pipeline/ffmpeg-args.js';
import { fetchTimeoutMs, workBudgetMs } from '../../../../../src/media/budget.js';
import { forgeMp4Durations } from '../../../../fixtures/abuse/make-corpus.js';
import type { ProbeResult } from '../../../../../src/contract/media.js';

const probe = (
  over: Partial<ProbeResult> & { v?: Partial<NonNullable<ProbeResult['video']>> | null } = {},
): ProbeResult => {
  const { v, ...rest } = over;
  return {
    format: 'mov,mp4,m4a,3gp,3g2,mj2',
    duration_sec: 5,
    size_bytes: 1000,
    video: v === null ? null : { codec: 'h264', width: 640, height: 480, fps: 25, rotation: 0, ...v },
    audio: { codec: 'aac', sample_rate: 48000, channels: 1 },
    ...rest,
  };
};
const limits = { maxDurationSec: 14_400 };

describe('contentDuration', () => {
  it('should believe the content over a forged header', () => {
    expect(contentDuration(4294967.28, 5.0155)).toBe(5.0155);
  });
  it('should keep a header that agrees with the content (it counts the last frame)', () => {
    expect(contentDuration(5.04, 5.0155)).toBe(5.04);
  });
  it('should take the content when the header is shorter (truncated index) or missing', () => {
    expect(contentDuration(3, 0.975)).toBe(0.975);
    expect(contentDuration(0, 2.5)).toBe(2.5);
  });
  it('should be 0 when there are no packets', () => {
    expect(contentDuration(12, null)).toBe(0);
  });
});

describe('cutShortFrom', () => {
  it("should give the header's duration when it announces clearly more than the content holds", () => {
    expect(cutShortFrom(8, 4.76)).toBe(8); // a faststart MP4 cut at 60 % of its bytes
    expect(cutShortFrom(3600, 30)).toBe(3600);
  });
  it('should be null when the header agrees, is shorter, is missing, or there is no content', () => {
    expect(cutShortFrom(5.04, 5.0155)).toBeNull(); // it counts the last frame
    expect(cutShortFrom(100, 96)).toBeNull(); // within 5 % of the content
    expect(cutShortFrom(3, 4)).toBeNull();
    expect(cutShortFrom(0, 2.5)).toBeNull();
    expect(cutShortFrom(12, null)).toBeNull();
  });
});

describe('isBitrateGuess', () => {
  it("should recognise ffprobe's guess of a duration from the bitrate", () => {
    expect(isBitrateGuess('[mp3 @ 0x5648] Estimating duration from bitrate, this may be inaccurate\n')).toBe(
      true,
    );
    expect(isBitrateGuess('')).toBe(false);
    expect(isBitrateGuess('[mov,mp4 @ 0x1] stream 0, offset 0x30: partial file\n')).toBe(false);
  });
});

describe('pixelAspectOf', () => {
  it("should read ffprobe's sample aspect ratio, square, unsaid and absurd ones as nothing", () => {
    expect(pixelAspectOf('8:9')).toEqual({ sar: 8 / 9 });
    expect(pixelAspectOf('64:45')).toEqual({ sar: 64 / 45 });
    for (const r of ['1:1', '0:1', 'N/A', undefined, '1000:1', '1:0']) expect(pixelAspectOf(r)).toEqual({});
  });
});

describe('mediaProblem', () => {
  it('should accept ordinary media', () => {
    expect(mediaProblem(probe(), limits, true)).toBeNull();
  });
  it('should refuse pictures under 16 px and over 8192 px a side, naming the size', () => {
    expect(mediaProblem(probe({ v: { width: 1, height: 1 } }), limits)).toEqual({
      code: 'too_small',
      message: 'the video is 1×1 pixels; at least 16×16 is needed',
    });
    expect(mediaProblem(probe({ v: { width: 16384, height: 16384 } }), limits)?.code).toBe('too_large');
    expect(mediaProblem(probe({ v: { width: 99, height: 75 } }), limits)).toBeNull();
  });
  it('should refuse media longer than the limit, and empty or single-frame media', () => {
    expect(mediaProblem(probe({ duration_sec: 20_000 }), limits)?.message).toBe(
      'the media is 5.6 h long; the limit is 4 h',
    );
    expect(mediaProblem(probe({ duration_sec: 0 }), limits)?.code).toBe('too_short');
  });
  it('should refuse still images and forged frame rates', () => {
    expect(mediaProblem(probe({ format: 'jpeg_pipe', duration_sec: 0.04 }), limits)?.code).toBe(
      'still_image',
    );
    expect(mediaProblem(probe({ v: { fps: 90_000 } }), limits)?.code).toBe('bad_frame_rate');
  });
  it('should accept audio-only media for analysis, not for processing', () => {
    expect(mediaProblem(probe({ v: null }), limits)).toBeNull();
    expect(mediaProblem(probe({ v: null }), limits, true)?.message).toBe(
      'the file has no video stream to process',
    );
  });
});

describe('plainMediaError', () => {
  const failed = (tail: string, code: number | null = 1) =>
    new FfmpegError(`ffmpeg exited with code ${code}: x`, code, tail);
  it('should never pass ffmpeg internals on', () => {
    const message = plainMediaError(
      failed('Error reinitializing filters!\nError while processing the decoded data for stream #1:0'),
      'the video',
    );
    expect(message).toBe(
      'the video could not be converted: its picture size, frame rate or format is not usable',
    );
    expect(message).not.toMatch(/#\d|stream|ffmpeg/);
  });
  it('should call damaged input damaged', () => {
    expect(plainMediaError(failed('moov atom not found'), 'the video')).toBe(
      'the video is damaged or truncated and could not be decoded',
    );
  });
  it('should keep a limit message, and retry only machine trouble', () => {
    const limit = new WorkLimitError(
      'deadline',
      'the render took longer than its budget of 170 s for 5.0 s of video',
    );
    expect(plainMediaError(limit)).toBe(limit.message);
    expect(isTransientMediaFailure(limit)).toBe(false);
    expect(isTransientMediaFailure(failed('Invalid data found when processing input'))).toBe(false);
    expect(isTransientMediaFailure(failed('No space left on device'))).toBe(true);
    expect(isTransientMediaFailure(failed('', null))).toBe(true); // killed by the system
  });
});

describe('budgets', () => {
  it('should follow the real duration: 120 s + 10 × seconds', () => {
    expect(workBudgetMs({ durationSec: 5 })).toBe(170_000);
    expect(workBudgetMs({ durationSec: 14_400 })).toBe((120 + 144_000) * 1000);
  });
  it('should follow the upload size before the duration is known', () => {
    expect(workBudgetMs({ durationSec: null, sizeBytes: 200 * 2 ** 20 })).toBe(130_000);
  });
  it('should let the Worker wait out the budget plus the longest turn in the container, plus a margin', () => {
    // 170 s of work after at most 600 s waiting for the key's turn, and 30 s for the container's own answer.
    expect(fetchTimeoutMs(170_000)).toBe(800_000);
  });
  it('should lower the priority of long work only, to the lowest there is', () => {
    expect(niceFor({ mediaSec: 5 })).toBe(0);
    expect(niceFor({ mediaSec: null })).toBe(0);
    expect(niceFor({ mediaSec: 300 })).toBe(19);
  });
  it('should share the CPU between keys: a key with k jobs here gets nice 5 × (k − 1), at most 19', () => {
    expect(niceFor({ mediaSec: 5 }, 1)).toBe(0);
    expect(niceFor({ mediaSec: 5 }, 3)).toBe(10);
    expect(niceFor({ mediaSec: 5 }, 5)).toBe(19);
    expect(niceFor({ mediaSec: 5 }, 9)).toBe(19);
    expect(niceFor({ mediaSec: 300 }, 2)).toBe(19);
  });
  it('should count a render’s work by its pixels per second, never below its duration', () => {
    expect(workSeconds(20, { width: 3840, height: 2160, fps: 60 })).toBeCloseTo(432);
    expect(workSeconds(20, { width: 1280, height: 720, fps: 25 })).toBe(20);
    expect(workSeconds(300, { width: 320, height: 240, fps: 25 })).toBe(300);
    expect(workSeconds(30)).toBe(30);
    expect(niceFor({ mediaSec: workSeconds(20, { width: 3840, height: 2160, fps: 60 }) })).toBe(19);
  });
});

describe('blurRadius', () => {
  it('should fit boxblur on small pictures (16 px failed the filter graph with 2)', () => {
    expect(blurRadius({ width: 16, height: 16 } as never)).toBe(1);
    expect(blurRadius({ width: 100, height: 76 } as never)).toBe(2);
    expect(blurRadius({ width: 1280, height: 720 } as never)).toBe(6);
  });
});

describe('forgeMp4Durations', () => {
  it('should patch the duration of version-0 mvhd, tkhd and mdhd boxes', () => {
    const box = (type: string, size: number) => {
      const b = Buffer.alloc(size);
      b.writeUInt32BE(size, 0);
      b.write(type, 4, 'latin1');
      return b;
    };
    const file = Buffer.concat([box('mvhd', 108), box('tkhd', 92), box('mdhd', 32)]);
    const { bytes, patched } = forgeMp4Durations(file);
    expect(patched).toBe(3);
    expect(bytes.readUInt32BE(8 + 16)).toBe(0xfffffff0); // mvhd: version/flags, creation, modification, timescale
    expect(bytes.readUInt32BE(108 + 8 + 20)).toBe(0xfffffff0); // tkhd: … track id, reserved
    expect(bytes.readUInt32BE(200 + 8 + 16)).toBe(0xfffffff0);
  });
});
