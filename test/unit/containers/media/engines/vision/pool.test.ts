import { describe, expect, it } from 'vitest';
import {
  defaultThreadCount,
  profilingFlags,
  visionPreloadWanted,
} from '../../../../../../containers/media/engines/vision/pool.js';

describe('profilingFlags', () => {
  it('keeps the CPU and heap profiling flags of the parent, nothing else', () => {
    expect(
      profilingFlags([
        '--require',
        '/x/preflight.cjs',
        '--import',
        'file:///x/loader.mjs',
        '--cpu-prof',
        '--cpu-prof-dir=/tmp/prof',
        '--cpu-prof-interval=2000',
        '--heap-prof',
        '--max-old-space-size=4096',
        '--cpu-profx',
      ]),
    ).toEqual(['--cpu-prof', '--cpu-prof-dir=/tmp/prof', '--cpu-prof-interval=2000', '--heap-prof']);
  });
  it('is empty when the parent is not profiled', () => {
    expect(profilingFlags(['--import', 'tsx'])).toEqual([]);
  });
});

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
