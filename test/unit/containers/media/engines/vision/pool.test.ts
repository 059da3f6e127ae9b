import { describe, expect, it } from 'vitest';
import { configFrom } from '../../../../../../containers/media/core/config.js';
import { defaultThreadCount } from '../../../../../../containers/media/engines/vision/pool.js';

describe('VISION_PRELOAD', () => {
  it('preloads unless VISION_PRELOAD is 0', () => {
    expect(configFrom({}).vision.preload).toBe(true);
    expect(configFrom({ VISION_PRELOAD: '1' }).vision.preload).toBe(true);
    expect(configFrom({ VISION_PRELOAD: '0' }).vision.preload).toBe(false);
  });
});

describe('defaultThreadCount', () => {
  it('takes VISION_THREADS when set, else one thread per core, at least one', () => {
    expect(defaultThreadCount(configFrom({ VISION_THREADS: '3' }).vision, 2)).toBe(3);
    expect(defaultThreadCount(configFrom({}).vision, 4)).toBe(4);
    expect(defaultThreadCount(configFrom({}).vision, 0)).toBe(1);
    expect(() => configFrom({ VISION_THREADS: '0' })).toThrow(/VISION_THREADS/);
  });
});
