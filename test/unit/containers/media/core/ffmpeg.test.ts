import { describe, expect, it } from 'vitest';
import { parseProbe, spawnMedia, statsTimeSec } from '../../../../../containers/media/core/ffmpeg.js';

describe('spawnMedia', () => {
  it('stops at once a process whose signal fired before it started', async () => {
    const ac = new AbortController();
    ac.abort();
    const t = performance.now();
    using proc = spawnMedia('sleep', ['30'], ac.signal);
    await expect(proc.done).rejects.toThrow();
    expect(performance.now() - t).toBeLessThan(5000);
  });

  it('stops a running process when its signal fires', async () => {
    const ac = new AbortController();
    using proc = spawnMedia('sleep', ['30'], ac.signal);
    setTimeout(() => ac.abort(), 100);
    await expect(proc.done).rejects.toThrow();
  });
});

describe('parseProbe', () => {
  it("should read the video stream's colour description", () => {
    const probe = parseProbe({
      streams: [{ codec_type: 'video', width: 2, height: 2, color_range: 'tv', color_primaries: 'bt709' }],
    });
    expect(probe.video?.color).toEqual({ range: 'tv', space: null, transfer: null, primaries: 'bt709' });
  });

  it('should describe the first audio stream and count them all', () => {
    const probe = parseProbe({
      streams: [
        { codec_type: 'video', width: 2, height: 2 },
        { codec_type: 'audio', codec_name: 'aac', sample_rate: '48000', channels: 2 },
        { codec_type: 'audio', codec_name: 'opus', sample_rate: '16000', channels: 1 },
      ],
    });
    expect(probe.audio).toEqual({ codec: 'aac', sample_rate: 48_000, channels: 2, streams: 2 });
  });
});

describe('statsTimeSec', () => {
  it("should read the output time of ffmpeg's last progress line", () => {
    expect(
      statsTimeSec('frame=    0 fps=0.0 q=0.0 size=       0KiB time=N/A bitrate=N/A speed=N/A    \r'),
    ).toBeNull();
    expect(
      statsTimeSec(
        'frame=  250 fps= 98 q=28.0 size=    1024KiB time=00:00:10.00 bitrate= 838.9kbits/s speed=3.9x    \r' +
          'frame=  300 fps= 97 q=28.0 size=    1280KiB time=00:00:12.04 bitrate= 871.0kbits/s speed=3.9x    \r',
      ),
    ).toBeCloseTo(12.04, 5);
    expect(statsTimeSec('size=N/A time=01:02:03.5 bitrate=N/A\n')).toBeCloseTo(3723.5, 5);
    expect(statsTimeSec('[libx264 @ 0x1] frame I:1 Avg QP:13.81\n')).toBeNull();
  });
});
