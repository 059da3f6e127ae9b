/**
 * @module jobs/stored-job
 * Reading a job's record from Durable Object storage, in the shape this version writes (a union
 * per status, `state.ts`) or in the flat one the previous version wrote.
 */
import type { JobOptions, JobStatus, ProcessingReport } from '../contract/jobs.js';
import { commonFields, completedOutput, type JobBase, type JobIn, type JobRecord } from './state.js';

/**
 * The flat record stored before the union per status: every field present, null when it did not
 * apply. Jobs live RETENTION_DAYS (7), so records of this shape stay in storage after an upgrade.
 */
export interface FlatJobRecord extends JobBase {
  status: JobStatus;
  stage: string | null;
  started_at: number | null;
  finished_at: number | null;
  heartbeat_at: number | null;
  error_message: string | null;
  result_key: string | null;
  output_key: string | null;
  /** Absent on still older records. */
  processing_report?: ProcessingReport | null;
}

/** What storage may hold under the job's key: this version's record or the flat one. */
export type StoredJob = JobRecord | (FlatJobRecord & JobOptions);

/**
 * Pure: the job from what storage holds, in either shape (a record of this version reads as
 * itself). A flat completed record without its kind's pointer, which `complete` never wrote,
 * reads as failed rather than as a completed job with nothing to show.
 */
export function readJobRecord(stored: StoredJob | null | undefined): JobRecord | null {
  if (!stored) return null;
  const flat = stored as Partial<FlatJobRecord>;
  const base = commonFields(stored);
  switch (stored.status) {
    case 'pending':
      return { ...base, status: 'pending' };
    case 'processing':
      return {
        ...base,
        status: 'processing',
        stage: flat.stage ?? null,
        started_at: flat.started_at ?? base.updated_at,
        heartbeat_at: flat.heartbeat_at ?? null,
      };
    case 'failed':
      return {
        ...base,
        status: 'failed',
        started_at: flat.started_at ?? null,
        finished_at: flat.finished_at ?? base.updated_at,
        error_message: flat.error_message || 'the job failed',
      };
    case 'completed': {
      const pointers = {
        result_key: flat.result_key ?? undefined,
        output_key: flat.output_key ?? undefined,
        processing_report: flat.processing_report ?? undefined,
      };
      const finishedAt = flat.finished_at ?? base.updated_at;
      const output = completedOutput(base.kind, pointers);
      if (!output)
        return {
          ...base,
          status: 'failed',
          started_at: flat.started_at ?? null,
          finished_at: finishedAt,
          error_message: 'the job completed but its output is not recorded',
        };
      return {
        ...base,
        ...output,
        status: 'completed',
        progress: 100,
        started_at: flat.started_at ?? base.created_at,
        finished_at: finishedAt,
      } as JobIn<'completed'>;
    }
  }
}
