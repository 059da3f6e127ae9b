/**
 * @module bench/support/ffmpeg-benchmark
 * One ffmpeg run timed by ffmpeg itself (`-benchmark`: user and system CPU of the process and its
 * real time), for the stages that are plain ffmpeg: the vision decode, the render floor.
 */
import { spawnSync } from 'node:child_process';

export interface FfmpegCost {
  wallMs: number;
  cpuMs: number;
}

/** The `bench: utime=… stime=… rtime=…` line of ffmpeg's stderr. */
export function parseFfmpegBenchmark(stderr: string): FfmpegCost {
  const m = /utime=([\d.]+)s stime=([\d.]+)s rtime=([\d.]+)s/.exec(stderr);
  if (!m) throw new Error(`no ffmpeg -benchmark line in: ${stderr.slice(-500)}`);
  return { wallMs: Number(m[3]) * 1000, cpuMs: (Number(m[1]) + Number(m[2])) * 1000 };
}

/** Runs `<bin> -hide_banner -nostdin -benchmark …args` and returns its own timing; throws if it fails. */
export function ffmpegBenchmark(args: string[], bin = 'ffmpeg'): FfmpegCost {
  const res = spawnSync(bin, ['-hide_banner', '-nostdin', '-benchmark', ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (res.status !== 0) throw new Error(`ffmpeg exited ${res.status}: ${res.stderr.slice(-500)}`);
  return parseFfmpegBenchmark(res.stderr);
}
