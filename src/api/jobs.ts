/**
 * @module api/jobs
 * DELETE /api/jobs/{video_id} — removes a job now (extension): its upload, intermediates,
 * output and result in R2, and its record; the status endpoint then answers `not_found`.
 * A running job is stopped: its record first (its consumer loses the lease), then its work in the
 * media container (`DELETE /jobs/{id}` there kills its processes). 204; 404 `not_found` for an unknown id or another key's job.
 * Without it, finished jobs are removed `RETENTION_DAYS` after they end.
 */
import { Hono } from 'hono';
import { ApiError } from '../contract/errors.js';
import { isWellFormedId } from '../shared/ids.js';
import { isTerminal } from '../jobs/state.js';
import { findJob, jobStub } from '../jobs/submit.js';
import type { AppEnv } from './middleware.js';

/** What DELETE does beyond the record: stop the job's running work (the Worker passes the media container's). */
export interface JobRoutesOptions {
  /** Stops a running job's work now. Default: none (its consumer stops at its next heartbeat). */
  stopWork?: (env: AppEnv['Bindings'], videoId: string) => Promise<void>;
}

export function createJobRoutes({ stopWork }: JobRoutesOptions = {}) {
  return new Hono<AppEnv>().delete('/api/jobs/:video_id', async function deleteJob(c) {
    const videoId = c.req.param('video_id');
    const job =
      isWellFormedId(videoId) && videoId.startsWith('vid_')
        ? await findJob(c.env, videoId, c.get('tenant').id)
        : null;
    if (!job) throw new ApiError('not_found', 'no job with this id for this API key');
    await jobStub(c.env, videoId).destroy();
    // A consumer would only notice at its next heartbeat: its container work is stopped now.
    if (!isTerminal(job.status) && stopWork) {
      await stopWork(c.env, videoId).catch((err) => {
        console.error(
          JSON.stringify({ level: 'warn', video_id: videoId, action: 'stop_work', error: String(err) }),
        );
      });
    }
    return c.body(null, 204);
  });
}
