/**
 * @module containers/media/server/admission
 * Fair admission between API keys (tenants) in one media service: a key runs at most
 * `MEDIA_JOBS_PER_KEY` jobs here at once; a request of a further job of that key waits its turn
 * (first come, first served within the key), so one key's burst cannot take the cores from
 * another key's job. Requests of a job that already runs here never wait (a job's speech and
 * vision lanes run side by side), nor do requests that name no job or no key (tools, health).
 * Waiting is bounded and costs the job nothing:
 * - the request's budget starts when it is admitted (work-scope.ts), never while it waits;
 * - it waits at most `x-admission-wait-ms` (the Worker's own allowance, which its fetch timeout
 *   includes), then runs anyway, at its key's lowered priority: a job is never stuck behind
 *   another;
 * - DELETE of the job, or the Worker going away, ends the wait at once.
 */
import { availableParallelism } from 'node:os';
import { MAX_ADMISSION_WAIT_SEC } from '../../../src/contract/media.js';
import { mediaConfig } from '../core/config.js';
import {
  onScopesChanged,
  reniceTenant,
  runningJobsOf,
  type WorkAbortedError,
  type WorkScope,
} from '../core/work-scope.js';

/**
 * Pure: how many jobs of one key may run at once in a service with `cpus` cores: half the
 * cores (at least one), unless `setting` (`MEDIA_JOBS_PER_KEY`, parsed by core/config) says otherwise.
 * @example jobsPerKey(undefined, 2) // → 1
 */
export const jobsPerKey = (setting: number | undefined, cpus: number): number =>
  setting ?? Math.max(1, Math.floor(cpus / 2));

/**
 * Pure: whether a request of `jobId` may start, given the jobs of its key already running here.
 * @example mayStart('b', new Set(['a']), 1) // → false: the key's one slot is taken by job a
 */
export function mayStart(jobId: string, runningOfKey: ReadonlySet<string>, limit: number): boolean {
  return runningOfKey.has(jobId) || runningOfKey.size < limit;
}

/** A request's longest wait when the Worker does not say (`x-admission-wait-ms`). */
export const DEFAULT_ADMISSION_WAIT_MS = MAX_ADMISSION_WAIT_SEC * 1000;

export const JOBS_PER_KEY = jobsPerKey(mediaConfig().server.jobsPerKey, availableParallelism());

interface Waiter {
  scope: WorkScope;
  resolve(how: Admission): void;
}
/** Waiting requests in arrival order (all keys; each waits only for its own key's jobs). */
const queue: Waiter[] = [];

export interface Admission {
  /** 'turn': its key had a free slot; 'waited too long': admitted at the end of its allowance. */
  how: 'at once' | 'turn' | 'waited too long';
  waitedMs: number;
}

let admitting = false;
/** Admits every waiter whose key has a free slot now, oldest first. */
function admitWaiting(): void {
  if (admitting) return; // start() below reports a change: this loop already sees it
  admitting = true;
  try {
    for (let i = 0; i < queue.length;) {
      const { scope, resolve } = queue[i];
      if (mayStart(scope.jobId!, runningJobsOf(scope.tenant!), JOBS_PER_KEY)) {
        queue.splice(i, 1);
        scope.start(); // before the next waiter's check: it counts now
        resolve({ how: 'turn', waitedMs: 0 });
      } else i++;
    }
  } finally {
    admitting = false;
  }
}
onScopesChanged(() => {
  if (queue.length) admitWaiting();
});

/**
 * Waits until `scope` (opened with `admitted: false`) may start, then starts it (its budget
 * begins). Rejects with the scope's abort reason (DELETE, the Worker gone) if that comes first.
 */
export async function admit(scope: WorkScope, maxWaitMs = DEFAULT_ADMISSION_WAIT_MS): Promise<Admission> {
  const t0 = Date.now();
  // A key with more work here than before: its running children yield further (work-scope.ts).
  reniceTenant(scope.tenant);
  if (!scope.jobId || !scope.tenant || mayStart(scope.jobId, runningJobsOf(scope.tenant), JOBS_PER_KEY)) {
    scope.start();
    return { how: 'at once', waitedMs: 0 };
  }
  const how = await new Promise<Admission['how']>((resolve, reject) => {
    const waiter: Waiter = { scope, resolve: (a) => settle(() => resolve(a.how)) };
    const timer = setTimeout(
      () =>
        settle(() => {
          scope.start();
          resolve('waited too long');
        }),
      maxWaitMs,
    );
    const onAbort = () => settle(() => reject(scope.signal.reason as WorkAbortedError));
    function settle(then: () => void) {
      clearTimeout(timer);
      scope.signal.removeEventListener('abort', onAbort);
      const i = queue.indexOf(waiter);
      if (i >= 0) queue.splice(i, 1);
      then();
    }
    if (scope.signal.aborted) return onAbort();
    scope.signal.addEventListener('abort', onAbort, { once: true });
    queue.push(waiter);
  });
  return { how, waitedMs: Date.now() - t0 };
}

/** Requests waiting for their turn, per job (for `GET /jobs` and tests). */
export const waitingJobs = (): string[] => queue.map((w) => w.scope.jobId!);
