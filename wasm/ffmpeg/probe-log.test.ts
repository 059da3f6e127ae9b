import { describe, expect, it } from 'vitest';
import { parseInputStreams } from './probe-log.js';

describe('parseInputStreams', () => {
  it('should count audio and video streams of the input and read its duration', () => {
    const log = [
      "Input #0, mov,mp4,m4a,3gp,3g2,mj2, from '/in-1':",
      '  Metadata:',
      '    major_brand     : isom',
      '  Duration: 00:01:05.04, start: 0.000000, bitrate: 760 kb/s',
      '  Stream #0:0[0x1](und): Video: h264 (High) (avc1 / 0x31637661), yuv420p, 256x256, 25 fps',
      '  Stream #0:1[0x2](und): Audio: aac (LC) (mp4a / 0x6134706D), 44100 Hz, stereo, fltp, 128 kb/s (default)',
      'Stream mapping:',
      '  Stream #0:1 -> #0:0 (aac (native) -> pcm_s16le (native))',
    ];
    expect(parseInputStreams(log)).toEqual({ audio: 1, video: 1, durationSec: 65.04 });
  });

  it('should report no audio for a silent video and ignore output streams', () => {
    const log = [
      "Input #0, mov,mp4,m4a,3gp,3g2,mj2, from '/in-2':",
      '  Duration: 00:00:03.00, start: 0.000000, bitrate: 36 kb/s',
      '  Stream #0:0[0x1](und): Video: h264 (High 4:4:4 Predictive), yuv444p, 160x120, 10 fps',
      "Output #0, s16le, to '/out-2.pcm':",
      '  Stream #0:0: Audio: pcm_s16le, 16000 Hz, mono, s16, 256 kb/s',
      'Output file #0 does not contain any stream',
    ];
    expect(parseInputStreams(log)).toEqual({ audio: 0, video: 1, durationSec: 3 });
  });

  it('should leave the duration out when ffmpeg prints N/A, and find nothing without an input section', () => {
    expect(
      parseInputStreams([
        'Input #0, s16le',
        '  Duration: N/A, bitrate: 256 kb/s',
        '  Stream #0:0: Audio: pcm_s16le',
      ]),
    ).toEqual({ audio: 1, video: 0 });
    expect(parseInputStreams(['/in-3: Invalid data found when processing input'])).toEqual({
      audio: 0,
      video: 0,
    });
  });
});
