/**
 * @module pipeline/run-job
 * Runs (or resumes) one job: claim it, check its inputs are still stored, run its plan's steps
 * in order with progress and heartbeats, complete it. Steps memoise their outputs in R2, so a
 * redelivered message resumes.
 */
import type { Env } from '../shared/env.js';
import type { JobRecord } from '../jobs/state.js';
import { jobStub } from '../jobs/submit.js';
import { TransientError, UnrecoverableError } from '../media/errors.js';
import { deleteJobWork } from '../storage/purge.js';
import { endContainerWork } from '../media/stop-work.js';
import { watchdogLimits } from '../jobs/limits.js';
import { createContext, heartbeatIntervalMs, type Plan, type StepContext } from './context.js';
import { withTicks } from './ticks.js';
import { withPlan } from './plans.js';
import { logStepTime } from './step-log.js';

/** This consumer lost the job (re-dispatched elsewhere or ended): stop quietly. */
export class LeaseLost extends Error {
  constructor(videoId: string) {
    super(`job ${videoId} is no longer held by this consumer`);
    this.name = 'LeaseLost';
  }
}

/** Runs a job this consumer has claimed (`job.lease` is its lease). */
export const runClaimed = (env: Env, job: JobRecord): Promise<'completed'> =>
  withPlan(job, (kindJob, plan) => runPlan(env, kindJob, plan));

async function runPlan<J extends JobRecord>(env: Env, job: J, plan: Plan<J>): Promise<'completed'> {
  const videoId = job.video_id;
  const stub = jobStub(env, videoId);
  const lease = job.lease;
  const steps = plan.steps.filter((s) => !s.when || s.when(job));
  const total = steps.reduce((sum, s) => sum + s.weight, 0) || 1;
  let done = 0;
  let current = steps[0]?.name ?? null;
  const beatEvery = heartbeatIntervalMs(watchdogLimits(env).stallMs);

  const setProgress = async (percent: number) => {
    if (!(await stub.progress(lease, percent, current))) throw new LeaseLost(videoId);
  };
  // Ends the job's container work as soon as a heartbeat finds the job deleted or taken over.
  const lost = new AbortController();
  const ctx: StepContext<J> = createContext(
    env,
    job,
    stub,
    async (fraction) => {
      const step = steps.find((s) => s.name === current);
      await setProgress(((done + Math.min(1, Math.max(0, fraction)) * (step?.weight ?? 0)) / total) * 100);
    },
    lost.signal,
  );

  await checkInputs(env.MEDIA, job);
  for (const step of steps) {
    current = step.name;
    await setProgress((done / total) * 100);
    const startedAt = Date.now();
    try {
      await withTicks(
        beatEvery,
        async () => {
          if (await stub.heartbeat(lease)) return;
          lost.abort(new LeaseLost(videoId));
          throw new LeaseLost(videoId);
        },
        () => step.run(ctx),
      );
    } catch (err) {
      throw lost.signal.aborted ? lost.signal.reason : inStep(step.name, err);
    }
    // One line per step: where a job's time goes (Date.now only advances across I/O in workerd, which every step does).
    logStepTime(videoId, step.name, startedAt);
    done += step.weight;
  }
  const pointers = await plan.finish(ctx);
  if (!(await stub.complete(lease, pointers))) throw new LeaseLost(videoId);
  await deleteJobWork(env.MEDIA, videoId);
  await endContainerWork(env, videoId);
  return 'completed';
}

/**
 * The uploaded files must still be stored, whole: one deleted or truncated since upload fails the
 * job at once, before any work, instead of being retried. (Other bytes in its place are for the
 * probe to refuse: it says what is wrong with them.)
 */
export async function checkInputs(bucket: R2Bucket, job: JobRecord): Promise<void> {
  const inputs = [
    { ref: job.source, what: 'uploaded video' },
    ...(job.audio ? [{ ref: job.audio, what: 'uploaded audio' }] : []),
  ];
  for (const { ref, what } of inputs) {
    const head = await bucket.head(ref.key);
    if (!head)
      throw new UnrecoverableError(`the ${what} is no longer stored (it was deleted before the job ran)`);
    if (head.size < ref.size) {
      throw new UnrecoverableError(
        `the ${what} is incomplete in storage (${head.size} of ${ref.size} bytes uploaded are stored)`,
      );
    }
  }
}

/**
 * Names the step in errors that do not say where they came from (a dropped connection, an R2
 * error), so the job's `last_error` and final message are precise. Domain errors pass as they are.
 */
function inStep(step: string, err: unknown): unknown {
  if (err instanceof UnrecoverableError || err instanceof TransientError || err instanceof LeaseLost)
    return err;
  const message = err instanceof Error ? err.message : String(err);
  return new TransientError(`the ${step} step failed: ${message}`, { cause: err });
}
