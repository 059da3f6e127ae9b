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
import { isWellFormedId } from '../jobs/ids.js';
import { isTerminal } from '../jobs/state.js';
import { findJob, jobStub } from '../jobs/submit.js';
import { MediaClient } from '../media/client.js';
import { mediaTransport } from '../media/transport.js';
import type { AppEnv } from './middleware.js';

export const jobRoutes = new Hono<AppEnv>().delete('/api/jobs/:video_id', async (c) => {
  const videoId = c.req.param('video_id');
  const job = isWellFormedId(videoId) && videoId.startsWith('vid_') ? await findJob(c.env, videoId, c.get('tenant').id) : null;
  if (!job) throw new ApiError('not_found', 'no job with this id for this API key');
  await jobStub(c.env, videoId).destroy();
  if (!isTerminal(job.status)) {
    // Stop its work in the media container now: a consumer would only notice at its next heartbeat.
    await new MediaClient(mediaTransport(c.env, videoId)).abortJob(videoId).catch((err) => {
      console.error(JSON.stringify({ level: 'warn', video_id: videoId, action: 'abort_container_work', error: String(err) }));
    });
  }
  return c.body(null, 204);
});
