/**
 * Live child processes of this test process, from /proc: the tests that check a job's DELETE
 * reaches its children count them before and after.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Pids of this process's children (zombies excluded) whose command line (args joined by spaces) matches. */
export function liveChildPids(commandLine: RegExp): string[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
        return Number(ppid) === process.pid && state !== 'Z' && commandLine.test(cmd);
      } catch {
        return false; // it ended while we looked
      }
    });
}

/** Waits up to `ms` for the matching children to be gone; returns the pids still there. */
export async function childrenLeftAfter(commandLine: RegExp, ms = 2_000): Promise<string[]> {
  const t0 = Date.now();
  while (liveChildPids(commandLine).length && Date.now() - t0 < ms)
    await new Promise((r) => setTimeout(r, 20));
  return liveChildPids(commandLine);
}
