/**
 * Long work really yields (issue #12): a child of a long job gets its nice value on its process
 * and on its own session's autogroup, where the kernel shares the CPU between sessions first.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { getPriority } from 'node:os';
import { spawnMedia } from '../../../../../containers/media/core/ffmpeg.js';
import { autogroupNice, autogroupsEnabled } from '../../../../../containers/media/core/priority.js';
import { openScope, reniceTenant, runInScope } from '../../../../../containers/media/core/work-scope.js';

const sleeper = () => spawnMedia('sleep', ['30']);

describe('child priority', () => {
  it('should run a child of long media at nice 19, on its process and its session autogroup', () => {
    const scope = openScope({ mediaSec: 300 });
    using proc = runInScope(scope, sleeper);
    const pid = proc.child.pid!;
    expect(getPriority(pid)).toBe(19);
    if (autogroupsEnabled()) expect(autogroupNice(pid)).toBe(19);
    scope.dispose();
  });

  it('should lower a running child further when its key sends more jobs (never raise it back)', () => {
    const first = openScope({ mediaSec: 5, tenant: 'burst-key', jobId: 'job-burst-1' });
    using proc = runInScope(first, sleeper);
    const pid = proc.child.pid!;
    const base = getPriority();
    expect(getPriority(pid)).toBe(base);
    const more = ['job-burst-2', 'job-burst-3'].map((jobId) =>
      openScope({ mediaSec: 5, tenant: 'burst-key', jobId, admitted: false }),
    );
    reniceTenant('burst-key');
    // Three jobs of the key here: 5 × (3 − 1).
    expect(getPriority(pid)).toBe(Math.max(base, 10));
    if (autogroupsEnabled()) expect(autogroupNice(pid)).toBe(10);
    for (const s of more) s.dispose();
    reniceTenant('burst-key');
    expect(getPriority(pid)).toBe(Math.max(base, 10));
    first.dispose();
  });

  it('should lower every thread of a child reniced after its threads started', async () => {
    const first = openScope({ mediaSec: 5, tenant: 'threads-key', jobId: 'job-threads-1' });
    // Node starts its platform threads at once, as ffmpeg 9 starts its pipeline threads.
    using proc = runInScope(first, () => spawnMedia(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']));
    const pid = proc.child.pid!;
    const tasks = () => readdirSync(`/proc/${pid}/task`).map(Number);
    for (let i = 0; i < 50 && tasks().length < 3; i++) await new Promise((r) => setTimeout(r, 20));
    expect(tasks().length).toBeGreaterThan(2);
    const more = openScope({ mediaSec: 5, tenant: 'threads-key', jobId: 'job-threads-2', admitted: false });
    reniceTenant('threads-key');
    const expected = Math.max(getPriority(), 5);
    expect(tasks().map((tid) => getPriority(tid))).toEqual(tasks().map(() => expected));
    more.dispose();
    first.dispose();
  });

  it('should leave a child of short media at normal priority', () => {
    const scope = openScope({ mediaSec: 5 });
    using proc = runInScope(scope, sleeper);
    const pid = proc.child.pid!;
    expect(getPriority(pid)).toBe(getPriority());
    if (autogroupsEnabled()) expect(autogroupNice(pid)).toBe(0);
    scope.dispose();
  });
});
