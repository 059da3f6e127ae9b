/**
 * @module pipeline/context
 * What a step sees: the job, the media client, the bucket, and helpers that make steps
 * idempotent (outputs keyed by job and step in R2) and report progress under the job's lease.
 */
import type { Env } from '../shared/env.js';
import type { JobObject } from '../jobs/job-object.js';
import type { CompletionPointers, JobRecord } from '../jobs/state.js';
import { MediaClient, type SourceHints } from '../media/client.js';
import { UnrecoverableError } from '../media/errors.js';
import { maxMediaDurationSec } from '../media/budget.js';
import { mediaTransport } from '../media/transport.js';
import { r2Keys } from '../shared/r2-keys.js';
import { maxUploadBytes } from '../storage/upload-limit.js';

/** Heartbeats come several times per stall window, so one late beat never looks like death. */
export const MAX_HEARTBEAT_INTERVAL_MS = 20_000;
export const heartbeatIntervalMs = (stallMs: number) =>
  Math.max(250, Math.min(MAX_HEARTBEAT_INTERVAL_MS, stallMs / 4));

/** `J`: the job's kind, when the step belongs to one kind's plan (its options are then typed). */
export interface StepContext<J extends JobRecord = JobRecord> {
  env: Env;
  job: J;
  media: MediaClient;
  bucket: R2Bucket;
  /** Reports the current step's own progress, 0..1. */
  report(fraction: number): Promise<void>;
  /** Reads the job's source as a stream. */
  source(): Promise<{ body: ReadableStream; size: number; hints: SourceHints }>;
  /** Returns the JSON a previous run of this step stored, or computes and stores it. */
  memo<T>(step: string, compute: () => Promise<T>): Promise<T>;
  workKey(step: string): string;
}

export interface Step<J extends JobRecord = JobRecord> {
  name: string;
  /** Share of the job's progress bar. */
  weight: number;
  /** Skips the step when false. */
  when?: (job: J) => boolean;
  run(ctx: StepContext<J>): Promise<void>;
}

/**
 * A job kind's ordered steps and how the job's pointers are set at the end. Declared here with
 * `Step`, not in `plans.ts`, so the plans in `steps/` do not import the module that imports them.
 */
export interface Plan<J extends JobRecord = JobRecord> {
  steps: Step<J>[];
  finish(ctx: StepContext<J>): Promise<CompletionPointers>;
}

/**
 * `signal` ends the job's in-flight container requests (the job was deleted, or this consumer
 * lost it); their budgets follow the media's real duration once probed (`media/budget.ts`).
 */
export function createContext<J extends JobRecord>(
  env: Env,
  job: J,
  stub: DurableObjectStub<JobObject>,
  onFraction: (f: number) => Promise<void>,
  signal?: AbortSignal,
): StepContext<J> {
  const bucket = env.MEDIA;
  const hints = { filename: job.source.filename, content_type: job.source.content_type };
  const openSource = async () => {
    const obj = await bucket.get(job.source.key);
    if (!obj) throw new UnrecoverableError('the uploaded video is no longer stored');
    return obj;
  };
  const media = new MediaClient(mediaTransport(env, job.video_id), {
    jobId: job.video_id,
    tenant: job.tenant,
    signal,
    maxDurationSec: maxMediaDurationSec(env),
    source: { hints, size: job.source.size, open: async () => (await openSource()).body },
    // A job stored under a larger limit than today's still runs.
    maxSourceBytes: Math.max(maxUploadBytes(env), job.source.size),
  });
  media.setMedia({ sizeBytes: job.source.size });
  return {
    env,
    job,
    bucket,
    media,
    report: onFraction,
    workKey: (step) => r2Keys.work(job.video_id, step),
    async source() {
      const obj = await openSource();
      return { body: obj.body, size: obj.size, hints };
    },
    async memo<T>(step: string, compute: () => Promise<T>): Promise<T> {
      const key = r2Keys.work(job.video_id, `${step}.json`);
      const stored = await bucket.get(key);
      if (stored) return stored.json<T>();
      const value = await compute();
      await bucket.put(key, JSON.stringify(value), { httpMetadata: { contentType: 'application/json' } });
      return value;
    },
  };
}
