import { describe, expect, it } from 'vitest';
import { videoColor } from '../../../../../containers/media/core/video-color.js';

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
});
