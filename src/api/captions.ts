/**
 * @module api/captions
 * GET /api/jobs/{video_id}/captions.vtt and .srt (extension): the caption files of a completed
 * job, written as it completed (`pipeline/captions.ts`): an analysis job's transcript from the
 * recogniser's word times, a processing job's new speech from the words the render timed on its
 * output. Another key's id is 404 `not_found`; a job still running or failed is 409
 * `job_not_completed`; a completed job without captions is 404 `no_captions`.
 */
import { Hono, type Context } from 'hono';
import { ApiError } from '../contract/errors.js';
import { isWellFormedId } from '../shared/ids.js';
import { r2Keys } from '../shared/r2-keys.js';
import { findJob } from '../jobs/submit.js';
import type { AppEnv } from './middleware.js';

const CONTENT_TYPES = { vtt: 'text/vtt; charset=utf-8', srt: 'application/x-subrip; charset=utf-8' };

async function captions(c: Context<AppEnv>, format: 'vtt' | 'srt'): Promise<Response> {
  const videoId = c.req.param('video_id') ?? '';
  const job = isWellFormedId(videoId) ? await findJob(c.env, videoId, c.get('tenant').id) : null;
  if (!job) throw new ApiError('not_found', 'no job with this id for this API key');
  if (job.status !== 'completed')
    throw new ApiError(
      'job_not_completed',
      job.status === 'failed'
        ? 'the job failed: it has no captions'
        : `the job is ${job.status}: its captions exist once it has completed`,
      { status: job.status },
    );
  const file = await c.env.MEDIA.get(r2Keys.captions(videoId, format));
  if (!file)
    throw new ApiError(
      'no_captions',
      job.kind === 'analysis'
        ? 'this job has no captions: no speech was recognised in it (or it completed before caption files were made)'
        : 'this job has no captions: its output has no new speech (speech synthesized from the description or supplied as audio) whose words could be timed',
    );
  return new Response(file.body, {
    headers: {
      'Content-Type': CONTENT_TYPES[format],
      'Content-Language': file.httpMetadata?.contentLanguage ?? 'en',
      'Content-Disposition': `inline; filename="${videoId}.${format}"`,
      'Cache-Control': 'private, no-store',
    },
  });
}

export const captionRoutes = new Hono<AppEnv>()
  .get('/api/jobs/:video_id/captions.vtt', (c) => captions(c, 'vtt'))
  .get('/api/jobs/:video_id/captions.srt', (c) => captions(c, 'srt'));
