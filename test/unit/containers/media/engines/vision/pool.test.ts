import { describe, expect, it } from 'vitest';
import {
  defaultThreadCount,
  visionPreloadWanted,
} from '../../../../../../containers/media/engines/vision/pool.js';

describe('visionPreloadWanted', () => {
  it('preloads unless VISION_PRELOAD is 0', () => {
    expect(visionPreloadWanted({})).toBe(true);
    expect(visionPreloadWanted({ VISION_PRELOAD: '1' })).toBe(true);
    expect(visionPreloadWanted({ VISION_PRELOAD: '0' })).toBe(false);
  });
});

describe('defaultThreadCount', () => {
  it('takes VISION_THREADS when it is a whole number ≥ 1', () => {
    expect(defaultThreadCount({ VISION_THREADS: '3' })).toBe(3);
    expect(defaultThreadCount({ VISION_THREADS: '0' })).toBeGreaterThanOrEqual(1);
  });
});
