/**
 * Holding lower-priority work (containers/media/server/cpu-hold.ts) on real processes: a long job's
 * child is stopped while another key's short job runs, runs again on its duty cycle and when
 * that job ends, is never held beside equal work, and is still killed at once by DELETE.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { HOLD_MS, LINGER_MS } from '../../containers/media/server/cpu-hold.js';
import { spawnMedia, type MediaProcess } from '../../containers/media/core/ffmpeg.js';
import { abortJob, openScope, runInScope, type WorkScope } from '../../containers/media/core/work-scope.js';

/** The kernel's state letter of `pid` ('R' running, 'S' sleeping, 'T' stopped), or null when gone. */
const state = (pid: number): string | null => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2);
  } catch {
    return null;
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/**
 * Waits until `pid` is in `letter` (at most `ms`): a signal takes effect when the task next runs,
 * and a nice-19 task on a busy machine may wait a while for that.
 */
async function reaches(pid: number, letter: string | null, ms = 1_500): Promise<string | null> {
  for (const t0 = Date.now(); state(pid) !== letter && Date.now() - t0 < ms;) await sleep(10);
  return state(pid);
}
/** The states `pid` went through over `ms`, sampled every 20 ms. */
async function states(pid: number, ms: number): Promise<Set<string | null>> {
  const seen = new Set<string | null>();
  for (const t0 = Date.now(); Date.now() - t0 < ms; await sleep(20)) seen.add(state(pid));
  return seen;
}

const opened: WorkScope[] = [];
const procs: MediaProcess[] = [];
afterEach(async () => {
  for (const p of procs.splice(0)) p.dispose();
  for (const s of opened.splice(0)) s.dispose();
  await sleep(LINGER_MS + 100); // the next test starts with no key's priority lingering
});
/** A scope of `tenant`'s job with `mediaSec` of media (over 60 s: long work, nice 19). */
const scopeOf = (tenant: string, jobId: string, mediaSec: number) => {
  const scope = openScope({ jobId, tenant, mediaSec });
  opened.push(scope);
  return scope;
};
/** A busy child (a shell spinning) in `scope`: runnable all the time unless held. */
const spin = (scope: WorkScope) => {
  const proc = runInScope(scope, () =>
    spawnMedia('sh', ['-c', 'while :; do :; done'], undefined, { idleMs: 60_000 }),
  );
  procs.push(proc);
  return proc.child.pid!;
};

describe('cpu hold', () => {
  it('should stop a long job’s child while another key’s short job runs (and in the gaps between its requests), and let it go when that job ends', async () => {
    const pid = spin(scopeOf('key-long', 'vid_holdlong000000000001', 300));
    expect(await states(pid, 300)).not.toContain('T');
    const short = scopeOf('key-short', 'vid_holdshort00000000001', 5);
    expect(await reaches(pid, 'T')).toBe('T');
    short.dispose();
    // The gap between two requests of a job is part of the job: the hold lingers, then ends.
    await sleep(Math.min(300, LINGER_MS / 2));
    expect(state(pid)).toBe('T');
    expect(await reaches(pid, 'R', LINGER_MS + 1_500)).toBe('R');
  });

  it('should let held work run on its duty cycle, never hold it longer than the hold time', async () => {
    const pid = spin(scopeOf('key-long', 'vid_holdlong000000000002', 300));
    scopeOf('key-short', 'vid_holdshort00000000002', 5);
    const seen = await states(pid, HOLD_MS + 800);
    expect(seen).toContain('T');
    expect(seen).toContain('R');
  });

  it('should never hold work beside equal work of another key', async () => {
    const pid = spin(scopeOf('key-a', 'vid_holdequal00000000001', 300));
    scopeOf('key-b', 'vid_holdequal00000000002', 300);
    expect(await states(pid, 500)).not.toContain('T');
  });

  it('should kill a held child at once when its job is deleted', async () => {
    const pid = spin(scopeOf('key-long', 'vid_holdlong000000000003', 300));
    scopeOf('key-short', 'vid_holdshort00000000003', 5);
    expect(await reaches(pid, 'T')).toBe('T');
    expect(abortJob('vid_holdlong000000000003')).toBe(1);
    expect(await reaches(pid, null, 500)).toBeNull();
  });
});
