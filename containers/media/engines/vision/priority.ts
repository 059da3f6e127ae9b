/**
 * @module containers/media/engines/vision/priority
 * The vision step yields the CPU to speech recognition. An analysis job runs Whisper and the
 * vision pool side by side on 2 cores; Whisper is the longer lane, and its OpenMP threads wait
 * at every barrier for whichever of them a vision thread pushed off a core. So the vision
 * threads and their ffmpeg decoder run at a lower priority (a higher nice value): they get what
 * Whisper leaves and, once it is done, all of both cores. Alone, as in a vision-only job, they
 * run as fast as before: nice only matters when something else wants the core. The nice value is
 * `VISION_NICE` (the configuration's `vision.nice`, default 10).
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { lowerPriority } from '../../core/priority.js';

/**
 * Sets the nice value of the calling thread only (Linux: `setpriority` on a thread id applies to
 * that thread; `/proc/thread-self` names it). Returns false where that is not possible (another
 * OS, no /proc, a lower value without the privilege): the thread then runs as it was.
 */
export function niceThisThread(nice: number): boolean {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid)) return false;
    setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}

/**
 * Sets the nice value of a child process (the decoder), on its session autogroup too: spawnMedia
 * starts every child in its own session, where a task's nice alone would not rank it against
 * Whisper (see containers/media/core/priority.ts). False when it cannot.
 */
export function niceProcess(pid: number | undefined, nice: number): boolean {
  if (pid === undefined) return false;
  const { task } = lowerPriority(pid, nice);
  return task;
}
