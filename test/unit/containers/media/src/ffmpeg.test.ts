import { describe, expect, it } from 'vitest';
import { parseProbe, spawnMedia } from '../../../../../containers/media/src/ffmpeg.js';

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
});
