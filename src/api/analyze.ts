/**
 * @module api/analyze
 * POST /api/analyze-video — creates an analysis job from an uploaded file.
 */
import { Hono } from 'hono';
import { ApiError } from '../contract/errors.js';
import { numberVar } from '../env.js';
import { newVideoId } from '../jobs/ids.js';
import { submitJob } from '../jobs/submit.js';
import { readUploadForm } from '../storage/form.js';
import { r2Keys } from '../storage/keys.js';
import { parseBoolean } from './form-values.js';
import type { AppEnv } from './middleware.js';

export const DEFAULT_MAX_UPLOAD_BYTES = 2 * 1024 ** 3;

export const analyzeRoutes = new Hono<AppEnv>().post('/api/analyze-video', async (c) => {
  const videoId = newVideoId();
  const form = await readUploadForm(c.env.MEDIA, c.req.raw, {
    files: { file: r2Keys.upload(videoId) },
    fields: ['visual_analytics'],
    maxFileBytes: numberVar(c.env.MAX_UPLOAD_BYTES, DEFAULT_MAX_UPLOAD_BYTES),
  });
  try {
    const source = form.files.file;
    if (!source) throw new ApiError('missing_file', 'the "file" field with the video is required', { field: 'file' });
    const visual_analytics = parseBoolean(form.fields, 'visual_analytics', false);
    await submitJob(c.env, {
      video_id: videoId,
      kind: 'analysis',
      tenant: c.get('tenant').id,
      source,
      audio: null,
      options: { visual_analytics },
    });
  } catch (err) {
    await c.env.MEDIA.delete(r2Keys.upload(videoId));
    throw err;
  }
  return c.json({ video_id: videoId, status: 'pending' as const });
});
