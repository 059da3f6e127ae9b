/**
 * ffmpeg's own timing line (bench/support/ffmpeg-benchmark), parsed and from a real run.
 */
import { describe, expect, it } from 'vitest';
import { ffmpegBenchmark, parseFfmpegBenchmark } from '../../../../bench/support/ffmpeg-benchmark.js';

describe('parseFfmpegBenchmark', () => {
  it('should add user and system CPU and keep real time', () => {
    expect(
      parseFfmpegBenchmark('frame= 1\nbench: utime=30.120s stime=1.380s rtime=16.500s\nbench: maxrss=1kB'),
    ).toEqual({ wallMs: 16_500, cpuMs: 31_500 });
  });
  it('should refuse output without the line', () => {
    expect(() => parseFfmpegBenchmark('Conversion failed!')).toThrow(/no ffmpeg -benchmark line/);
  });
});

describe('ffmpegBenchmark', () => {
  it('should time a real ffmpeg run and fail loudly on a bad one', () => {
    const cost = ffmpegBenchmark([
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=160x120:rate=10',
      '-t',
      '1',
      '-f',
      'null',
      '-',
    ]);
    expect(cost.wallMs).toBeGreaterThan(0);
    expect(cost.cpuMs).toBeGreaterThanOrEqual(0);
    expect(() => ffmpegBenchmark(['-i', '/nonexistent.mp4', '-f', 'null', '-'])).toThrow(/ffmpeg exited/);
  });
});
