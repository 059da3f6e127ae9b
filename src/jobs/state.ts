/**
 * @module jobs/state
 * The job state machine as pure functions. A job's record is a union on `status`, each variant
 * with exactly the fields that status has; each transition checks the current state and returns
 * the next record, or throws `InvalidTransition`; the Durable Object only persists.
 *
 *   pending ──claim──▶ processing ──complete──▶ completed
 *      │ ▲ redispatch     │  ▲ progress/heartbeat, giveBack, redispatch
 *      └──────fail────────┴──┴────fail────────▶ failed
 *
 * Records stored before the union (one flat record) are read by `stored-job.ts`.
 */
import type { JobOptions, JobStatus, ProcessingReport, SourceRef, StatusResponse } from '../contract/jobs.js';

/** What every job records, whatever its status. */
export interface JobBase {
  video_id: string;
  tenant: string;
  /** 0.0–100.0, never decreases; 100.0 exactly when completed. */
  progress: number;
  created_at: number;
  updated_at: number;
  source: SourceRef;
  audio: SourceRef | null;
  /** Incremented by every claim and re-dispatch; a consumer holding an older lease is told to stop. */
  lease: number;
  /** How often the watchdog re-dispatched the job. */
  redispatches: number;
  /** The last transient error, reported if the job finally fails. */
  last_error: string | null;
  /** Where its end is announced (`webhook_url`), and the origin its download link is signed for. */
  webhook?: { url: string; origin: string } | null;
}

/** Queued: no consumer has taken it yet. */
export interface PendingJob extends JobBase {
  status: 'pending';
}

/** A consumer holds it (`lease`) and reports progress. */
export interface ProcessingJob extends JobBase {
  status: 'processing';
  /** The pipeline step running now (probe, audio, asr, vision, render…); null until the first report. */
  stage: string | null;
  started_at: number;
  /** Last heartbeat of the consumer holding the lease; null once given back or re-dispatched. */
  heartbeat_at: number | null;
}

/** Ended with its output (the kind's pointer: `CompletedOutput`). */
export interface CompletedJob extends JobBase {
  status: 'completed';
  progress: 100;
  started_at: number;
  finished_at: number;
}

/** Ended without an output; `started_at` is null when it never ran. */
export interface FailedJob extends JobBase {
  status: 'failed';
  started_at: number | null;
  finished_at: number;
  error_message: string;
}

/** A job's state: one variant per status, each with exactly the fields that status has. */
export type JobState = PendingJob | ProcessingJob | CompletedJob | FailedJob;

/** What a completed job produced, by kind: R2 keys of its result or output. */
export type CompletedOutput =
  | { kind: 'analysis'; result_key: string }
  | { kind: 'processing'; output_key: string; processing_report: ProcessingReport | null };

/**
 * A job: its state and its kind's options, tied by `kind` (narrowing on `kind` types `options`,
 * and of a completed job, its output).
 */
export type JobRecord =
  ((PendingJob | ProcessingJob | FailedJob) & JobOptions) | (CompletedJob & JobOptions & CompletedOutput);
/** The job of one kind. */
export type JobOf<K extends JobRecord['kind']> = Extract<JobRecord, { kind: K }>;
/** The job in one status. */
export type JobIn<S extends JobStatus> = Extract<JobRecord, { status: S }>;

export class InvalidTransition extends Error {
  constructor(from: JobStatus, action: string) {
    super(`cannot ${action} a ${from} job`);
    this.name = 'InvalidTransition';
  }
}

export const isTerminal = (status: JobStatus) => status === 'completed' || status === 'failed';

/** What a status poll shows of a running job. */
export type VisibleState = Pick<JobState, 'status' | 'progress'>;
export const visiblyChanged = (a: VisibleState, b: VisibleState): boolean =>
  a.status !== b.status || a.progress !== b.progress;

/**
 * A long-poll answers a progress change no sooner than this after it arrived: a step that reports
 * every frame would otherwise turn one waiting client into many requests a second.
 */
export const PROGRESS_ANSWER_MIN_MS = 1_000;

/**
 * Pure: how much longer a long-poll that read `seen` waits, `elapsedMs` into its `waitMs`, given
 * the record now (0: answer). A new status, an ended job or a gone record answer at once; a
 * progress change once PROGRESS_ANSWER_MIN_MS have passed.
 * @example
 * longPollRemainingMs({ status: 'processing', progress: 10 }, { status: 'processing', progress: 20 }, 300, 25_000) // 700
 */
export function longPollRemainingMs(
  seen: VisibleState,
  now: VisibleState | null,
  elapsedMs: number,
  waitMs: number,
): number {
  if (!now || isTerminal(now.status) || now.status !== seen.status) return 0;
  const until = now.progress !== seen.progress ? Math.min(waitMs, PROGRESS_ANSWER_MIN_MS) : waitMs;
  return Math.max(0, until - elapsedMs);
}

export type NewJob = Pick<JobBase, 'video_id' | 'tenant' | 'source' | 'audio' | 'webhook'> & JobOptions;

export function createJob(init: NewJob, now: number): JobRecord {
  return {
    ...init,
    status: 'pending',
    progress: 0,
    created_at: now,
    updated_at: now,
    lease: 0,
    redispatches: 0,
    last_error: null,
  };
}

/** Narrows a job to one that ended (it has `finished_at`). */
export const hasEnded = (job: JobRecord): job is JobIn<'completed' | 'failed'> => isTerminal(job.status);

/** When the job ended; null while it runs. */
export const finishedAt = (job: JobRecord): number | null => (hasEnded(job) ? job.finished_at : null);

/** When the job ended, or last changed while it runs. */
export const endedOrUpdatedAt = (job: JobRecord): number =>
  hasEnded(job) ? job.finished_at : job.updated_at;

/** The fields every status keeps (`webhook` only when the job has one). */
const BASE_FIELDS = [
  'video_id',
  'tenant',
  'progress',
  'created_at',
  'updated_at',
  'source',
  'audio',
  'lease',
  'redispatches',
  'last_error',
  'webhook',
] as const satisfies readonly (keyof JobBase)[];

/** The fields every status keeps, and the kind with its options (what a transition starts from). */
export function commonFields(job: JobBase & JobOptions): JobBase & JobOptions {
  const kept = Object.fromEntries(
    BASE_FIELDS.filter((k) => job[k] !== undefined).map((k) => [k, job[k]]),
  ) as unknown as JobBase;
  return job.kind === 'analysis'
    ? { ...kept, kind: 'analysis', options: job.options }
    : { ...kept, kind: 'processing', options: job.options };
}

/** A consumer takes the job (first delivery, redelivery or watchdog re-dispatch). */
export function claim(job: JobRecord, now: number): JobIn<'processing'> {
  if (hasEnded(job)) throw new InvalidTransition(job.status, 'claim');
  return {
    ...commonFields(job),
    status: 'processing',
    stage: job.status === 'processing' ? job.stage : null,
    lease: job.lease + 1,
    started_at: job.status === 'processing' ? job.started_at : now,
    heartbeat_at: now,
    updated_at: now,
  };
}

/** Progress only moves forward and stays below 100 until completion. */
export function advance(
  job: JobRecord,
  progress: number,
  stage: string | null,
  now: number,
): JobIn<'processing'> {
  if (job.status !== 'processing') throw new InvalidTransition(job.status, 'report progress on');
  const clamped = Math.min(99.9, Math.max(job.progress, roundProgress(progress)));
  return { ...job, progress: clamped, stage: stage ?? job.stage, heartbeat_at: now, updated_at: now };
}

export function heartbeat(job: JobRecord, now: number): JobIn<'processing'> {
  if (job.status !== 'processing') throw new InvalidTransition(job.status, 'heartbeat');
  return { ...job, heartbeat_at: now };
}

/** What a finished plan hands to `complete`. */
export interface CompletionPointers {
  result_key?: string;
  output_key?: string;
  processing_report?: ProcessingReport;
}

/** The kind's output from a plan's pointers; null when the kind's pointer is missing. */
export function completedOutput(
  kind: JobRecord['kind'],
  pointers: CompletionPointers,
): CompletedOutput | null {
  if (kind === 'analysis') return pointers.result_key ? { kind, result_key: pointers.result_key } : null;
  return pointers.output_key
    ? { kind, output_key: pointers.output_key, processing_report: pointers.processing_report ?? null }
    : null;
}

export function complete(job: JobRecord, pointers: CompletionPointers, now: number): JobIn<'completed'> {
  if (job.status !== 'processing') throw new InvalidTransition(job.status, 'complete');
  const output = completedOutput(job.kind, pointers);
  if (!output)
    throw new Error(
      job.kind === 'analysis'
        ? 'an analysis job completes with a result'
        : 'a processing job completes with an output',
    );
  return {
    ...commonFields(job),
    ...output,
    status: 'completed',
    progress: 100,
    started_at: job.started_at,
    finished_at: now,
    updated_at: now,
  } as JobIn<'completed'>;
}

export function fail(job: JobRecord, message: string, now: number): JobIn<'failed'> {
  if (hasEnded(job)) throw new InvalidTransition(job.status, 'fail');
  return {
    ...commonFields(job),
    status: 'failed',
    started_at: job.status === 'processing' ? job.started_at : null,
    error_message: message || 'the job failed',
    finished_at: now,
    updated_at: now,
  };
}

/** Records a transient error (reported if the job finally fails); any status. */
export function noteError<J extends JobRecord>(job: J, message: string, now: number): J {
  return { ...job, last_error: message, updated_at: now };
}

/**
 * The holder gives a processing job back after a transient failure: the error noted and the
 * heartbeat cleared, so the retried delivery can claim it at once; `updated_at` restarts the
 * watchdog's stall clock.
 */
export function giveBack(job: JobIn<'processing'>, message: string, now: number): JobIn<'processing'> {
  return { ...noteError(job, message, now), heartbeat_at: null };
}

/**
 * The watchdog dispatches a lost job again: a new lease makes any silent consumer stale; a
 * processing job loses its heartbeat (the next claim succeeds at once); `updated_at` restarts
 * the stall clock.
 */
export function redispatch(job: JobRecord, now: number): JobIn<'pending' | 'processing'> {
  if (hasEnded(job)) throw new InvalidTransition(job.status, 're-dispatch');
  const next = { ...job, redispatches: job.redispatches + 1, lease: job.lease + 1, updated_at: now };
  return next.status === 'processing' ? { ...next, heartbeat_at: null } : next;
}

/** The watchdog's verdict for a job at time `now`. */
export type WatchdogVerdict =
  { action: 'none' } | { action: 'redispatch' } | { action: 'fail'; message: string };

export interface WatchdogLimits {
  /** A pending job not picked up within this time is dispatched again. */
  pendingRedispatchMs: number;
  /** A processing job whose consumer sent no heartbeat within this time is dispatched again. */
  stallMs: number;
  /** A job running longer than this fails. */
  maxRunMs: number;
  /** Re-dispatches before the job fails. */
  maxRedispatches: number;
}

export function watchdog(job: JobRecord, now: number, limits: WatchdogLimits): WatchdogVerdict {
  if (hasEnded(job)) return { action: 'none' };
  if (job.status === 'processing' && now - job.started_at > limits.maxRunMs) {
    return {
      action: 'fail',
      message: `the job exceeded the maximum run time of ${Math.round(limits.maxRunMs / 1000)} s`,
    };
  }
  const quietSince = job.status === 'processing' ? (job.heartbeat_at ?? job.updated_at) : job.updated_at;
  const limit = job.status === 'pending' ? limits.pendingRedispatchMs : limits.stallMs;
  if (now - quietSince < limit) return { action: 'none' };
  if (job.redispatches >= limits.maxRedispatches) {
    const why = job.last_error ? `: ${job.last_error}` : '';
    return {
      action: 'fail',
      message:
        job.status === 'pending'
          ? `the job was never picked up by a worker${why}`
          : `the worker processing the job stopped responding (${job.redispatches} restarts tried)${why}`,
    };
  }
  return { action: 'redispatch' };
}

/**
 * Pure: what the status endpoint (and a job's webhook) shows of any job before its outputs are
 * added: the download link of a processing job and the result of an analysis job come from storage.
 */
export function statusFields(job: JobRecord): StatusResponse {
  return {
    status: job.status,
    progress: job.progress,
    download_url: null,
    result: null,
    error_message: job.status === 'failed' ? job.error_message : null,
    ...(job.status === 'completed' && job.kind === 'processing' && job.processing_report
      ? { processing_report: job.processing_report }
      : {}),
  };
}

export const roundProgress = (p: number) => Math.round(Math.min(100, Math.max(0, p)) * 10) / 10;
