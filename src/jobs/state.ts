/**
 * @module jobs/state
 * The job state machine as pure functions. Each transition checks the current state and
 * returns the next record, or throws `InvalidTransition`; the Durable Object only persists.
 *
 *   pending ──claim──▶ processing ──complete──▶ completed
 *      │                  │  ▲ progress/heartbeat
 *      └──────fail────────┴──┴────fail────────▶ failed
 */
import type { JobOptions, JobStatus, ProcessingReport, SourceRef, StatusResponse } from '../contract/jobs.js';

/** What every job records, whatever its kind. */
export interface JobState {
  video_id: string;
  tenant: string;
  status: JobStatus;
  /** 0.0–100.0, never decreases; 100.0 exactly when completed. */
  progress: number;
  /** The pipeline step running now (probe, audio, asr, vision, render…), null before and after. */
  stage: string | null;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  finished_at: number | null;
  /** Last heartbeat of the consumer holding the lease. */
  heartbeat_at: number | null;
  error_message: string | null;
  /** R2 keys of what the job produced. */
  result_key: string | null;
  output_key: string | null;
  /** What a completed processing job did (absent on older records). */
  processing_report?: ProcessingReport | null;
  source: SourceRef;
  audio: SourceRef | null;
  /** Incremented by every claim; a consumer holding an older lease is told to stop. */
  lease: number;
  /** How often the watchdog re-dispatched the job. */
  redispatches: number;
  /** The last transient error, reported if the job finally fails. */
  last_error: string | null;
  /** Where its end is announced (`webhook_url`), and the origin its download link is signed for. */
  webhook?: { url: string; origin: string } | null;
}

/** A job: its state and its kind's options, tied by `kind` (narrowing on `kind` types `options`). */
export type JobRecord = JobState & JobOptions;
/** The job of one kind. */
export type JobOf<K extends JobRecord['kind']> = Extract<JobRecord, { kind: K }>;

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

export type NewJob = Pick<JobState, 'video_id' | 'tenant' | 'source' | 'audio' | 'webhook'> & JobOptions;

export function createJob(init: NewJob, now: number): JobRecord {
  return {
    ...init,
    status: 'pending',
    progress: 0,
    stage: null,
    created_at: now,
    updated_at: now,
    started_at: null,
    finished_at: null,
    heartbeat_at: null,
    error_message: null,
    result_key: null,
    output_key: null,
    lease: 0,
    redispatches: 0,
    last_error: null,
  };
}

/** A consumer takes the job (first delivery, redelivery or watchdog re-dispatch). */
export function claim(job: JobRecord, now: number): JobRecord {
  if (isTerminal(job.status)) throw new InvalidTransition(job.status, 'claim');
  return {
    ...job,
    status: 'processing',
    lease: job.lease + 1,
    started_at: job.started_at ?? now,
    heartbeat_at: now,
    updated_at: now,
  };
}

/** Progress only moves forward and stays below 100 until completion. */
export function advance(job: JobRecord, progress: number, stage: string | null, now: number): JobRecord {
  if (job.status !== 'processing') throw new InvalidTransition(job.status, 'report progress on');
  const clamped = Math.min(99.9, Math.max(job.progress, roundProgress(progress)));
  return { ...job, progress: clamped, stage: stage ?? job.stage, heartbeat_at: now, updated_at: now };
}

export function heartbeat(job: JobRecord, now: number): JobRecord {
  if (job.status !== 'processing') throw new InvalidTransition(job.status, 'heartbeat');
  return { ...job, heartbeat_at: now };
}

/** What a finished plan hands to `complete`. */
export interface CompletionPointers {
  result_key?: string;
  output_key?: string;
  processing_report?: ProcessingReport;
}

export function complete(job: JobRecord, pointers: CompletionPointers, now: number): JobRecord {
  if (job.status !== 'processing') throw new InvalidTransition(job.status, 'complete');
  if (job.kind === 'analysis' && !pointers.result_key)
    throw new Error('an analysis job completes with a result');
  if (job.kind === 'processing' && !pointers.output_key)
    throw new Error('a processing job completes with an output');
  return {
    ...job,
    status: 'completed',
    progress: 100,
    stage: null,
    result_key: pointers.result_key ?? null,
    output_key: pointers.output_key ?? null,
    processing_report: pointers.processing_report ?? null,
    error_message: null,
    finished_at: now,
    updated_at: now,
  };
}

export function fail(job: JobRecord, message: string, now: number): JobRecord {
  if (isTerminal(job.status)) throw new InvalidTransition(job.status, 'fail');
  return {
    ...job,
    status: 'failed',
    stage: null,
    error_message: message || 'the job failed',
    finished_at: now,
    updated_at: now,
  };
}

export function noteError(job: JobRecord, message: string, now: number): JobRecord {
  return { ...job, last_error: message, updated_at: now };
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
  if (isTerminal(job.status)) return { action: 'none' };
  if (job.started_at !== null && now - job.started_at > limits.maxRunMs) {
    return {
      action: 'fail',
      message: `the job exceeded the maximum run time of ${Math.round(limits.maxRunMs / 1000)} s`,
    };
  }
  const quietSince = job.status === 'pending' ? job.updated_at : (job.heartbeat_at ?? job.updated_at);
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
    ...(job.status === 'completed' && job.processing_report
      ? { processing_report: job.processing_report }
      : {}),
  };
}

export const roundProgress = (p: number) => Math.round(Math.min(100, Math.max(0, p)) * 10) / 10;
