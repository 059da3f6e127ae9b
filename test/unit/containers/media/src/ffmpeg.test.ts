import { describe, expect, it } from 'vitest';
import { parseProbe, spawnMedia, videoColor } from '../../../../../containers/media/src/ffmpeg.js';

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

describe('videoColor', () => {
  it("should keep the names ffmpeg's setparams takes, spell two transfers its way, and drop the rest", () => {
    expect(
      videoColor({
        color_range: 'pc',
        color_space: 'bt2020nc',
        color_transfer: 'smpte2084',
        color_primaries: 'bt2020',
      }),
    ).toEqual({ range: 'pc', space: 'bt2020nc', transfer: 'smpte2084', primaries: 'bt2020' });
    expect(videoColor({ color_transfer: 'gamma22' }).transfer).toBe('bt470m');
    expect(videoColor({ color_transfer: 'gamma28' }).transfer).toBe('bt470bg');
    expect(
      videoColor({
        color_range: 'unknown',
        color_space: 'reserved',
        color_transfer: 'constructor',
        color_primaries: 'bt709:x=1',
      }),
    ).toEqual({ range: null, space: null, transfer: null, primaries: null });
    expect(videoColor({})).toEqual({ range: null, space: null, transfer: null, primaries: null });
  });

  it('should be part of the probe of a video stream', () => {
    const probe = parseProbe({
      streams: [{ codec_type: 'video', width: 2, height: 2, color_range: 'tv', color_primaries: 'bt709' }],
    });
    expect(probe.video?.color).toEqual({ range: 'tv', space: null, transfer: null, primaries: 'bt709' });
  });
});
