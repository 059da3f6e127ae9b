/**
 * @module containers/media/work-scope
 * The budget of one container request, seen by every child process it starts. A request runs
 * inside a scope (AsyncLocalStorage) that carries:
 * - the job it works for (`x-job-id`): `DELETE /jobs/{id}` aborts every scope of that job;
 * - a wall-clock deadline (`x-work-budget-ms`, set by the Worker from the media's real duration,
 *   else `DEFAULT_REQUEST_BUDGET_MS`), which `narrow()` can only shorten;
 * - one AbortSignal that fires on any of: the client went away, DELETE, the deadline.
 * `spawnMedia` (ffmpeg.ts) reads the scope, so every engine's processes (speech recognition and
 * speech synthesis included) are bounded and killed without those engines knowing about it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** A request without a budget header (tools, tests): one hour. */
export const DEFAULT_REQUEST_BUDGET_MS = Number(process.env.MEDIA_REQUEST_BUDGET_MS) || 3_600_000;

/** Why a scope was aborted: its reason is one of these errors. */
export class WorkAbortedError extends Error {
  constructor(
    readonly why: 'deleted' | 'deadline' | 'client_gone',
    message: string,
  ) {
    super(message);
    this.name = 'WorkAbortedError';
  }
}

export interface WorkScope {
  jobId: string | null;
  /** The API key's tenant id (`x-tenant-id`): a tenant with several jobs running here yields to the others. */
  tenant: string | null;
  /** Seconds of media the request works on, when known (`x-media-duration-sec`, or set by a route after probing). */
  mediaSec: number | null;
  /** Set when a child of this scope was stopped by a limit (inactivity, deadline, DELETE): its plain message. */
  limitHit: string | null;
  signal: AbortSignal;
  /** Epoch ms after which the work is aborted. */
  readonly deadline: number;
  /** Shortens the deadline to `ms` from now (never lengthens it). */
  narrow(ms: number, why?: string): void;
  dispose(): void;
}

const storage = new AsyncLocalStorage<WorkScope>();
const byJob = new Map<string, Set<WorkScope & { abort(reason: WorkAbortedError): void }>>();

export const currentScope = (): WorkScope | undefined => storage.getStore();

/** Starts a scope; `run` the request inside it with `runInScope`. */
export function openScope({
  jobId = null,
  budgetMs = DEFAULT_REQUEST_BUDGET_MS,
  signal,
  mediaSec = null,
  tenant = null,
}: {
  jobId?: string | null;
  budgetMs?: number;
  signal?: AbortSignal;
  mediaSec?: number | null;
  tenant?: string | null;
} = {}): WorkScope {
  const controller = new AbortController();
  let deadline = Date.now() + budgetMs;
  let timer: NodeJS.Timeout | undefined;
  let what = `the work took longer than its budget of ${Math.round(budgetMs / 1000)} s`;
  const abort = (reason: WorkAbortedError) => {
    if (!controller.signal.aborted) controller.abort(reason);
    dispose();
  };
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(
      () => abort(new WorkAbortedError('deadline', what)),
      Math.max(0, deadline - Date.now()),
    );
    timer.unref();
  };
  const onClientGone = () => abort(new WorkAbortedError('client_gone', 'the caller went away'));
  const dispose = () => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onClientGone);
    if (jobId) {
      const set = byJob.get(jobId);
      set?.delete(scope);
      if (set?.size === 0) byJob.delete(jobId);
    }
  };
  const scope = {
    jobId,
    tenant,
    mediaSec,
    limitHit: null as string | null,
    signal: controller.signal,
    get deadline() {
      return deadline;
    },
    narrow(ms: number, why?: string) {
      if (Date.now() + ms >= deadline) return;
      deadline = Date.now() + ms;
      what = why ?? `the work took longer than its budget of ${Math.round(ms / 1000)} s`;
      arm();
    },
    dispose,
    abort,
  };
  arm();
  if (signal?.aborted) onClientGone();
  else signal?.addEventListener('abort', onClientGone, { once: true });
  if (jobId) {
    let set = byJob.get(jobId);
    if (!set) byJob.set(jobId, (set = new Set()));
    set.add(scope);
  }
  return scope;
}

export const runInScope = <T>(scope: WorkScope, fn: () => T): T => storage.run(scope, fn);

/** Aborts every running scope of `jobId` (DELETE of the job); returns how many there were. */
export function abortJob(jobId: string): number {
  const set = byJob.get(jobId);
  if (!set) return 0;
  const scopes = [...set];
  for (const s of scopes) s.abort(new WorkAbortedError('deleted', 'the job was deleted'));
  return scopes.length;
}

/** Jobs with running work (for `GET /jobs`, tests and the health page). */
export const runningJobs = (): string[] => [...byJob.keys()];

/** Media longer than this is long work: its processes run at a lower CPU priority. */
export const LONG_MEDIA_SEC = Number(process.env.MEDIA_LONG_WORK_SEC) || 60;
/** The nice value of long work's processes: short jobs of other keys get the CPU first. */
export const LONG_WORK_NICE = 10;

/** Nice added per further job of the same tenant running here (fair share between keys). */
export const NICE_PER_TENANT_JOB = 5;

/** How many distinct jobs of `tenant` have running work here. */
export function tenantJobs(tenant: string | null): number {
  if (!tenant) return 0;
  let n = 0;
  for (const set of byJob.values()) if ([...set].some((s) => s.tenant === tenant)) n++;
  return n;
}

/**
 * Pure: the nice value for a child of `scope` (0 = normal): long media gets `LONG_WORK_NICE`; a
 * tenant with k jobs running here gets 5 × (k − 1) (at most 15), so one key's burst shares the CPU
 * with another key's single job instead of outnumbering it.
 * @example niceFor({ mediaSec: 300 }) // → 10
 */
export const niceFor = (scope: Pick<WorkScope, 'mediaSec'> | undefined, sameTenantJobs = 0): number =>
  Math.min(
    MAX_NICE,
    Math.max(
      scope?.mediaSec != null && scope.mediaSec > LONG_MEDIA_SEC ? LONG_WORK_NICE : 0,
      NICE_PER_TENANT_JOB * Math.max(0, sameTenantJobs - 1),
    ),
  );
const MAX_NICE = 15;

/** The nice value for a child started now in `scope`. */
export const currentNice = (scope: WorkScope | undefined): number =>
  niceFor(scope, tenantJobs(scope?.tenant ?? null));

/**
 * The request's own signal joined with the current scope's (deadline, DELETE): for engines whose
 * work is not a child process of this request (the warm Whisper worker, in-process ONNX sessions),
 * so the budget and DELETE reach them too.
 */
export function withScopeSignal(signal?: AbortSignal): AbortSignal | undefined {
  const scope = currentScope();
  if (!scope) return signal;
  return signal ? AbortSignal.any([signal, scope.signal]) : scope.signal;
}
