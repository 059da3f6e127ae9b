/**
 * @module api/jobs
 * DELETE /api/jobs/{video_id} — removes a job now (extension): its upload, intermediates,
 * output and result in R2, and its record; the status endpoint then answers `not_found`.
 * A running job is stopped. 204; 404 `not_found` for an unknown id or another key's job.
 * Without it, finished jobs are removed `RETENTION_DAYS` after they end.
 */
import { Hono } from 'hono';
import { ApiError } from '../contract/errors.js';
import { isWellFormedId } from '../jobs/ids.js';
import { findJob, jobStub } from '../jobs/submit.js';
import type { AppEnv } from './middleware.js';

export const jobRoutes = new Hono<AppEnv>().delete('/api/jobs/:video_id', async (c) => {
  const videoId = c.req.param('video_id');
  const job = isWellFormedId(videoId) && videoId.startsWith('vid_') ? await findJob(c.env, videoId, c.get('tenant').id) : null;
  if (!job) throw new ApiError('not_found', 'no job with this id for this API key');
  await jobStub(c.env, videoId).destroy();
  return c.body(null, 204);
});
