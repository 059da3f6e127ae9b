/**
 * @module pipeline/run-job
 * Runs (or resumes) one job: claim it, run its plan's steps in order with progress and
 * heartbeats, complete it. Steps memoise their outputs in R2, so a redelivered message resumes.
 */
import type { Env } from '../env.js';
import type { JobRecord } from '../jobs/state.js';
import { jobStub } from '../jobs/submit.js';
import { r2Keys } from '../storage/keys.js';
import { watchdogLimits } from '../jobs/limits.js';
import { createContext, heartbeatIntervalMs, withHeartbeat, type StepContext } from './context.js';
import { planFor } from './plans.js';

/** This consumer lost the job (re-dispatched elsewhere or ended): stop quietly. */
export class LeaseLost extends Error {
  constructor(videoId: string) {
    super(`job ${videoId} is no longer held by this consumer`);
    this.name = 'LeaseLost';
  }
}

export type RunOutcome = 'completed' | 'skipped';

export async function runJob(env: Env, videoId: string): Promise<RunOutcome> {
  const stub = jobStub(env, videoId);
  const claimed = await stub.claim();
  if (!claimed.ok) return 'skipped';
  const job = claimed.job as JobRecord;
  const lease = job.lease;
  const plan = planFor(job);
  const steps = plan.steps.filter((s) => !s.when || s.when(job));
  const total = steps.reduce((sum, s) => sum + s.weight, 0) || 1;
  let done = 0;
  let current = steps[0]?.name ?? null;
  const beatEvery = heartbeatIntervalMs(watchdogLimits(env).stallMs);

  const setProgress = async (percent: number) => {
    if (!(await stub.progress(lease, percent, current))) throw new LeaseLost(videoId);
  };
  const ctx: StepContext = createContext(env, job, stub, async (fraction) => {
    const step = steps.find((s) => s.name === current);
    await setProgress(((done + Math.min(1, Math.max(0, fraction)) * (step?.weight ?? 0)) / total) * 100);
  });

  for (const step of steps) {
    current = step.name;
    await setProgress((done / total) * 100);
    await withHeartbeat(
      beatEvery,
      async () => {
        if (!(await stub.heartbeat(lease))) throw new LeaseLost(videoId);
      },
      () => step.run(ctx),
    );
    done += step.weight;
  }
  const pointers = await plan.finish(ctx);
  if (!(await stub.complete(lease, pointers))) throw new LeaseLost(videoId);
  await deleteWork(env.MEDIA, videoId);
  return 'completed';
}

/** Intermediates are removed when a job ends. */
export async function deleteWork(bucket: R2Bucket, videoId: string): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix: r2Keys.workPrefix(videoId), cursor });
    if (page.objects.length) await bucket.delete(page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
}
