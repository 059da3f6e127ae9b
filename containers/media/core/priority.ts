/**
 * @module containers/media/core/priority
 * Lowers a child process's CPU priority so that it really yields. Every child runs in its own
 * session (`detached`, so a kill reaches its process group), and with the kernel's session
 * autogroups (`/proc/sys/kernel/sched_autogroup_enabled`, on in Debian's and most distributions'
 * kernels) the scheduler first shares the CPU between sessions, then between the tasks of one
 * session: a task's nice value only ranks it against its own session. A niced 5-min blur in its own
 * session still got an equal share beside a normal job (figure in docs/benchmarks.md), so
 * the nice value is written to the session's autogroup as well.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';

/** Whether the kernel schedules sessions as groups (false where /proc says no or is absent). */
export function autogroupsEnabled(): boolean {
  try {
    return readFileSync('/proc/sys/kernel/sched_autogroup_enabled', 'utf8').trim() === '1';
  } catch {
    return false;
  }
}

/**
 * Sets `nice` on the process `pid` and, when it leads its own session, on that session's
 * autogroup. Best effort: where either is not permitted the child runs at normal priority.
 * Returns what took effect (for logs and tests).
 */
export function lowerPriority(pid: number, nice: number): { task: boolean; autogroup: boolean } {
  let task = false;
  let autogroup = false;
  // A nice value belongs to one thread: a child reniced after it started its threads (ffmpeg 9's
  // demuxer, decoder, filter and encoder threads, x264's) needs each of them set.
  for (const tid of threadsOf(pid)) {
    try {
      setPriority(tid, nice);
      task = true;
    } catch {
      /* not permitted, or the thread already ended */
    }
  }
  if (autogroupsEnabled()) {
    try {
      writeFileSync(`/proc/${pid}/autogroup`, String(nice));
      autogroup = true;
    } catch {
      /* not permitted, or the process already exited */
    }
  }
  return { task, autogroup };
}

/** The thread ids of `pid` (/proc/<pid>/task), or just `pid` where /proc cannot tell. */
function threadsOf(pid: number): number[] {
  try {
    const tids = readdirSync(`/proc/${pid}/task`).map(Number).filter(Number.isInteger);
    return tids.length ? tids : [pid];
  } catch {
    return [pid];
  }
}

/** The autogroup nice of `pid` as the kernel reports it ("/autogroup-12 nice 10"), or null. */
export function autogroupNice(pid: number): number | null {
  try {
    const m = /nice\s+(-?\d+)/.exec(readFileSync(`/proc/${pid}/autogroup`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}
