/**
 * @module containers/media/core/work-scope
 * The budget of one container request, seen by every child process it starts. A request runs
 * inside a scope (AsyncLocalStorage) that carries:
 * - the job it works for (`x-job-id`): `DELETE /jobs/{id}` aborts every scope of that job;
 * - a wall-clock deadline (`x-work-budget-ms`, set by the Worker from the media's real duration,
 *   else `DEFAULT_REQUEST_BUDGET_MS`), which `narrow()` can only shorten;
 * - one AbortSignal that fires on any of: the client went away, DELETE, the deadline.
 * `spawnMedia` (ffmpeg.ts) reads the scope, so every engine's processes (speech recognition and
 * speech synthesis included) are bounded and killed without those engines knowing about it.
 * A scope may open before it is admitted (admission.ts: a key's jobs beyond its share wait their
 * turn): DELETE reaches it while it waits, and its deadline starts only when it is admitted, so
 * waiting never spends the budget.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { mediaConfig } from './config.js';
import { lowerPriority } from './priority.js';

/** A request without a budget header (tools, tests): one hour. */
export const DEFAULT_REQUEST_BUDGET_MS = mediaConfig().core.requestBudgetMs;

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
  /**
   * Seconds of work the request does, when known: the media's duration (`x-media-duration-sec`),
   * or a render's `workSeconds` once it has probed its source (its nice value follows it).
   */
  mediaSec: number | null;
  /** Set when a child of this scope was stopped by a limit (inactivity, deadline, DELETE): its plain message. */
  limitHit: string | null;
  signal: AbortSignal;
  /** False while the scope waits for its turn (admission.ts); its work has not started. */
  readonly admitted: boolean;
  /** Epoch ms after which the work is aborted (Infinity while not admitted). */
  readonly deadline: number;
  /** Admits a waiting scope: its budget starts now. */
  start(): void;
  /** Shortens the deadline to `ms` from now (never lengthens it). */
  narrow(ms: number, why?: string): void;
  /** Child processes of this scope that are alive, with the nice value each runs at. */
  readonly children: Map<number, number>;
  dispose(): void;
}

const storage = new AsyncLocalStorage<WorkScope>();
const byJob = new Map<string, Set<WorkScope & { abort(reason: WorkAbortedError): void }>>();
/** Called whenever a scope of a job is opened, admitted or ended (admission.ts wakes waiters). */
const changeListeners = new Set<() => void>();
export const onScopesChanged = (fn: () => void) => void changeListeners.add(fn);
const scopesChanged = () => {
  for (const fn of changeListeners) fn();
};

export const currentScope = (): WorkScope | undefined => storage.getStore();

/** Starts a scope; `run` the request inside it with `runInScope`. */
export function openScope({
  jobId = null,
  budgetMs = DEFAULT_REQUEST_BUDGET_MS,
  signal,
  mediaSec = null,
  tenant = null,
  admitted = true,
}: {
  jobId?: string | null;
  budgetMs?: number;
  signal?: AbortSignal;
  mediaSec?: number | null;
  tenant?: string | null;
  /** False: the scope waits for `start()` (its budget has not started). */
  admitted?: boolean;
} = {}): WorkScope {
  const controller = new AbortController();
  let deadline = admitted ? Date.now() + budgetMs : Infinity;
  let isAdmitted = admitted;
  let disposed = false;
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
    if (disposed) return;
    disposed = true;
    if (jobId) {
      const set = byJob.get(jobId);
      set?.delete(scope);
      if (set?.size === 0) byJob.delete(jobId);
    }
    noteBursts();
    if (jobId) scopesChanged();
  };
  const scope = {
    jobId,
    tenant,
    mediaSec,
    limitHit: null as string | null,
    signal: controller.signal,
    children: new Map<number, number>(),
    get admitted() {
      return isAdmitted;
    },
    get deadline() {
      return deadline;
    },
    start() {
      if (isAdmitted || disposed) return;
      isAdmitted = true;
      deadline = Date.now() + budgetMs;
      arm();
      if (jobId) scopesChanged();
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
  if (admitted) arm();
  if (jobId) {
    let set = byJob.get(jobId);
    if (!set) byJob.set(jobId, (set = new Set()));
    set.add(scope);
    noteBursts();
    scopesChanged();
  }
  if (signal?.aborted) onClientGone();
  else signal?.addEventListener('abort', onClientGone, { once: true });
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

/** Every open scope of a job, admitted or waiting (cpu-hold.ts decides their holds). */
export const activeScopes = (): WorkScope[] => [...byJob.values()].flatMap((set) => [...set]);

/** Jobs with running work (for `GET /jobs`, tests and the health page). */
export const runningJobs = (): string[] => [...byJob.keys()];

/** Work longer than this (seconds of media, `workSeconds`) is long work: its processes run at a lower CPU priority. */
export const LONG_MEDIA_SEC = mediaConfig().core.longWorkSec;
/**
 * The nice value of long work's processes: short jobs of other keys get the CPU first. The
 * lowest priority there is: on a contended core a nice-19 session gets ~1.5 % beside a nice-0 one
 * (nice 10: ~10 %); alone, it still gets every idle cycle.
 */
export const LONG_WORK_NICE = 19;

/** Pictures larger or faster than this count as more seconds of work (`workSeconds`). */
const REFERENCE_PIXEL_RATE = 1280 * 720 * 25;

/**
 * Pure: the cost of work on `durationSec` of media in seconds of 720p at 25 fps: a render's
 * cost grows with its pixels per second, so 20 s of 4K at 60 fps is long work (≈ 430 s), while
 * smaller pictures never count as less than their duration.
 * @example workSeconds(20, { width: 3840, height: 2160, fps: 60 }) // → 432
 */
export function workSeconds(
  durationSec: number,
  picture?: { width: number; height: number; fps: number },
): number {
  const load = picture ? (picture.width * picture.height * picture.fps) / REFERENCE_PIXEL_RATE : 1;
  return durationSec * Math.max(1, Number.isFinite(load) ? load : 1);
}

/** Nice added per further job of the same tenant running here (fair share between keys). */
export const NICE_PER_TENANT_JOB = 5;

/**
 * How long a key's burst (the most of its jobs here at once) outlasts the moment it was last that
 * large (`MEDIA_BURST_MEMORY_SEC`): a key that sent five jobs at once keeps yielding while they
 * finish one by one, instead of its last jobs running at full priority beside another key's single
 * job. Jobs sent one after another are no burst: a key that waits for each job before the next
 * keeps its full priority.
 */
export const BURST_MEMORY_MS = mediaConfig().core.burstMemorySec * 1000;

/** A key's burst: the most of its jobs here at once, and when it last had that many. */
export interface Burst {
  jobs: number;
  seen: number;
}

/**
 * Pure: a key's burst once it has `current` jobs here at `now`: the larger of the two, a peak kept
 * for `memoryMs` after it was last reached; undefined once nothing is left to remember.
 * @example nextBurst({ jobs: 5, seen: 0 }, 1, 30_000) // → { jobs: 5, seen: 0 }
 * @example nextBurst({ jobs: 5, seen: 0 }, 1, 61_000) // → { jobs: 1, seen: 61000 }
 */
export function nextBurst(
  burst: Burst | undefined,
  current: number,
  now: number,
  memoryMs = BURST_MEMORY_MS,
): Burst | undefined {
  if (burst && current < burst.jobs && now - burst.seen <= memoryMs) return burst;
  return current > 0 ? { jobs: current, seen: now } : undefined;
}

/** tenant → its burst. */
const bursts = new Map<string, Burst>();

/** Distinct jobs of `tenant` with work here now: admitted (running) only, or waiting for their turn too. */
function jobsOf(tenant: string, admittedOnly: boolean): Set<string> {
  const jobs = new Set<string>();
  for (const [jobId, set] of byJob)
    if ([...set].some((s) => s.tenant === tenant && (s.admitted || !admittedOnly))) jobs.add(jobId);
  return jobs;
}
const jobsHere = (tenant: string): number => jobsOf(tenant, false).size;

/** Updates every key's burst (scopes opened or ended); keys past the memory are forgotten. */
const noteBursts = (now = Date.now()) => {
  const tenants = new Set([...bursts.keys()]);
  for (const set of byJob.values()) for (const s of set) if (s.tenant) tenants.add(s.tenant);
  for (const tenant of tenants) {
    const burst = nextBurst(bursts.get(tenant), jobsHere(tenant), now);
    if (burst) bursts.set(tenant, burst);
    else bursts.delete(tenant);
  }
};

/**
 * How many jobs of `tenant` count towards its priority: its jobs here now (running or waiting),
 * or its burst within the last `BURST_MEMORY_MS`, whichever is larger.
 */
export function tenantJobs(tenant: string | null, now = Date.now()): number {
  if (!tenant) return 0;
  const current = jobsHere(tenant);
  const burst = bursts.get(tenant);
  return burst && now - burst.seen <= BURST_MEMORY_MS ? Math.max(current, burst.jobs) : current;
}

/** The jobs of `tenant` with admitted (running) work here. */
export const runningJobsOf = (tenant: string): Set<string> => jobsOf(tenant, true);

/**
 * A tenant's share shrank (another of its jobs arrived): its running children get the higher
 * nice value their scope would get now. Only ever raised: lowering a nice value needs a privilege.
 */
export function reniceTenant(tenant: string | null): void {
  if (!tenant) return;
  for (const set of byJob.values())
    for (const scope of set) {
      if (scope.tenant !== tenant || scope.children.size === 0) continue;
      const nice = currentNice(scope);
      for (const [pid, was] of scope.children)
        if (nice > was) {
          lowerPriority(pid, nice);
          scope.children.set(pid, nice);
        }
    }
}

/**
 * Pure: the nice value for a child of `scope` (0 = normal): long work gets `LONG_WORK_NICE`; a
 * tenant with k jobs here (running or waiting) gets 5 × (k − 1) (at most 19), so one key's burst
 * yields to another key's single job instead of outnumbering it.
 * @example niceFor({ mediaSec: 300 }) // → 19
 */
export const niceFor = (scope: Pick<WorkScope, 'mediaSec'> | undefined, sameTenantJobs = 0): number =>
  Math.min(
    MAX_NICE,
    Math.max(
      scope?.mediaSec != null && scope.mediaSec > LONG_MEDIA_SEC ? LONG_WORK_NICE : 0,
      NICE_PER_TENANT_JOB * Math.max(0, sameTenantJobs - 1),
    ),
  );
const MAX_NICE = 19;

/** Whether a key other than `tenant` has admitted (running) work here. */
export function otherKeysRunning(tenant: string | null): boolean {
  for (const set of byJob.values()) for (const s of set) if (s.admitted && s.tenant !== tenant) return true;
  return false;
}

/** Longest pause of long work per `yieldToOtherKeys` call. */
export const LONG_WORK_PAUSE_MS = 200;

/**
 * Long work's own thread yields too: its children are niced, but the frames it relays and the
 * masks it blends run on the service's main thread at normal priority. A pump of long work calls
 * this once per second of output: while another key has work running here it pauses, at most
 * `maxMs` (so long work slows, never stops; its budget of 10 × the media's length leaves room), and
 * the stalled pipes hold its niced children too. Short work, or work with no other key, never waits.
 */
export async function yieldToOtherKeys(scope = currentScope(), maxMs = LONG_WORK_PAUSE_MS): Promise<void> {
  if (!scope || niceFor(scope) < LONG_WORK_NICE || !otherKeysRunning(scope.tenant)) return;
  const until = Date.now() + maxMs;
  while (Date.now() < until && !scope.signal.aborted && otherKeysRunning(scope.tenant))
    await new Promise((r) => setTimeout(r, Math.min(20, until - Date.now())));
}

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
