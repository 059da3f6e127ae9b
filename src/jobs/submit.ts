/**
 * @module jobs/submit
 * Creating a job: its Durable Object record first, then the queue message (so a consumer
 * always finds the record). Looking a job up for a tenant.
 */
import type { JobMessage } from './job-object.js';
import type { JobObject } from './job-object.js';
import type { JobRecord, NewJob } from './state.js';

export interface JobsEnv {
  JOB: DurableObjectNamespace<JobObject>;
  JOBS: Queue<JobMessage>;
}

export const jobStub = (env: JobsEnv, videoId: string) => env.JOB.get(env.JOB.idFromName(videoId));

export async function submitJob(env: JobsEnv, init: NewJob): Promise<JobRecord> {
  const job = await jobStub(env, init.video_id).create(init);
  await env.JOBS.send({ video_id: init.video_id });
  return job as JobRecord;
}

/** The job if it exists and belongs to the tenant; null otherwise (reported as not_found). */
export async function findJob(env: JobsEnv, videoId: string, tenant: string): Promise<JobRecord | null> {
  const job = (await jobStub(env, videoId).get()) as JobRecord | null;
  return job && job.tenant === tenant ? job : null;
}

/**
 * Long-poll: `job` (as `findJob` found it) once its status or progress moves, or after `waitMs`.
 * Only ever called with a job `findJob` found for the caller, so an id of another key never waits
 * (the wait itself would tell that the id exists).
 */
export async function awaitJobChange(
  env: JobsEnv,
  job: JobRecord,
  waitMs: number,
): Promise<JobRecord | null> {
  const seen = { status: job.status, progress: job.progress };
  const next = (await jobStub(env, job.video_id).changedSince(seen, waitMs)) as JobRecord | null;
  return next && next.tenant === job.tenant ? next : null;
}
