/**
 * Fair admission between keys in the media service (issue #12, "one job never blocks another"):
 * a key's jobs beyond its share wait their turn; waiting never spends a budget, is bounded, and
 * ends at once on DELETE.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type * as AdmissionModule from '../../../../../containers/media/server/admission.js';
import {
  abortJob,
  openScope,
  WorkAbortedError,
  type WorkScope,
} from '../../../../../containers/media/core/work-scope.js';

let admission: typeof AdmissionModule;
beforeAll(async () => {
  // One job per key, whatever this machine's core count (read when the module loads).
  process.env.MEDIA_JOBS_PER_KEY = '1';
  admission = await import('../../../../../containers/media/server/admission.js');
});

const opened: WorkScope[] = [];
const scopeOf = (tenant: string, jobId: string, budgetMs = 60_000) => {
  const scope = openScope({ tenant, jobId, budgetMs, admitted: false });
  opened.push(scope);
  return scope;
};
const settled = async (p: Promise<unknown>) =>
  Promise.race([
    p.then(
      () => 'settled',
      () => 'settled',
    ),
    new Promise((r) => setTimeout(() => r('pending'), 50)),
  ]);

describe('jobsPerKey', () => {
  it('should give a key half the cores, at least one, unless MEDIA_JOBS_PER_KEY says', () => {
    expect(admission.jobsPerKey(undefined, 2)).toBe(1);
    expect(admission.jobsPerKey(undefined, 1)).toBe(1);
    expect(admission.jobsPerKey(undefined, 8)).toBe(4);
    expect(admission.jobsPerKey(3, 2)).toBe(3);
  });
});

describe('mayStart', () => {
  it('should start a job while its key has a free slot, and a running job’s further requests always', () => {
    expect(admission.mayStart('a', new Set(), 1)).toBe(true);
    expect(admission.mayStart('b', new Set(['a']), 1)).toBe(false);
    expect(admission.mayStart('a', new Set(['a']), 1)).toBe(true);
    expect(admission.mayStart('c', new Set(['a', 'b']), 3)).toBe(true);
  });
});

describe('admit', () => {
  it('should hold a key’s second job until its first ends, without holding another key’s job', async () => {
    const first = scopeOf('key-a', 'job-a1');
    expect((await admission.admit(first)).how).toBe('at once');
    const sibling = scopeOf('key-a', 'job-a1');
    expect((await admission.admit(sibling)).how).toBe('at once');
    const second = scopeOf('key-a', 'job-a2');
    const waiting = admission.admit(second);
    const other = scopeOf('key-b', 'job-b1');
    expect((await admission.admit(other)).how).toBe('at once');
    expect(await settled(waiting)).toBe('pending');
    expect(second.admitted).toBe(false);
    expect(second.deadline).toBe(Infinity);
    first.dispose();
    expect(await settled(waiting)).toBe('pending'); // job-a1 still runs (its sibling request)
    sibling.dispose();
    const t0 = Date.now();
    const done = await waiting;
    expect(done.how).toBe('turn');
    expect(done.waitedMs).toBeGreaterThanOrEqual(50);
    // The budget starts at admission: the whole 60 s are left.
    expect(second.deadline).toBeGreaterThanOrEqual(t0 + 59_000);
    for (const s of opened.splice(0)) s.dispose();
  });

  it('should end a wait at once when the job is deleted', async () => {
    const running = scopeOf('key-c', 'job-c1');
    await admission.admit(running);
    const waiting = scopeOf('key-c', 'job-c2');
    const wait = admission.admit(waiting);
    expect(admission.waitingJobs()).toContain('job-c2');
    expect(abortJob('job-c2')).toBe(1);
    const err = await wait.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkAbortedError);
    expect((err as WorkAbortedError).why).toBe('deleted');
    expect(admission.waitingJobs()).not.toContain('job-c2');
    for (const s of opened.splice(0)) s.dispose();
  });

  it('should run a job anyway once it waited its longest, so no job is stuck behind another', async () => {
    const running = scopeOf('key-d', 'job-d1');
    await admission.admit(running);
    const late = scopeOf('key-d', 'job-d2');
    const done = await admission.admit(late, 100);
    expect(done.how).toBe('waited too long');
    expect(late.admitted).toBe(true);
    expect(Number.isFinite(late.deadline)).toBe(true);
    for (const s of opened.splice(0)) s.dispose();
  });

  it('should admit requests that name no job or no key at once', async () => {
    const blocker = scopeOf('key-e', 'job-e1');
    await admission.admit(blocker);
    const tool = openScope({ tenant: 'key-e', admitted: false });
    expect((await admission.admit(tool)).how).toBe('at once');
    tool.dispose();
    for (const s of opened.splice(0)) s.dispose();
  });
});
