/**
 * Job records for tests: a new analysis and processing job, and a record as the version before
 * the union per status stored it (one flat record with every field, null where it did not apply;
 * jobs live 7 days, so such records outlive an upgrade).
 */
import type { JobOptions } from '../../src/contract/jobs.js';
import { ProcessOptions } from '../../src/contract/options.js';
import type { NewJob } from '../../src/jobs/state.js';
import type { FlatJobRecord } from '../../src/jobs/stored-job.js';

export const analysisJob: NewJob = {
  video_id: 'vid_x',
  kind: 'analysis',
  tenant: 't',
  audio: null,
  options: { visual_analytics: false },
  source: { key: 'uploads/vid_x/source', size: 1, filename: null, content_type: null },
};

export const processingJob: NewJob = {
  ...analysisJob,
  video_id: 'vid_p',
  kind: 'processing',
  options: ProcessOptions.parse({ speech: 'original' }),
};

export type FlatJob = FlatJobRecord & JobOptions;

/** `job`'s flat record, pending at `at` unless `over` says otherwise. */
export const flatJobRecord = (job: NewJob, at: number, over: Partial<FlatJob> = {}): FlatJob =>
  ({
    ...job,
    status: 'pending',
    progress: 0,
    stage: null,
    created_at: at,
    updated_at: at,
    started_at: null,
    finished_at: null,
    heartbeat_at: null,
    error_message: null,
    result_key: null,
    output_key: null,
    lease: 1,
    redispatches: 0,
    last_error: null,
    ...over,
  }) as FlatJob;
