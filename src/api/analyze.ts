/**
 * @module api/analyze
 * POST /api/analyze-video — creates an analysis job from an uploaded file (or a completed
 * resumable upload named by `file_id`). Honours `Idempotency-Key` and the key's job limit.
 */
import { Hono } from 'hono';
import type { JobCreated } from '../contract/responses.js';
import { ApiError } from '../contract/errors.js';
import { AnalysisOptions } from '../contract/options.js';
import { newVideoId } from '../shared/ids.js';
import { submitJob } from '../jobs/submit.js';
import { r2Keys } from '../shared/r2-keys.js';
import { formFields, parseFormOptions } from './form-options.js';
import { intake } from './intake.js';
import type { AppEnv } from './middleware.js';
import { WEBHOOK_URL_FIELD, webhookOf } from './webhooks.js';

/** The form's text fields (beside the `file` upload); the route table documents the same. */
export const ANALYZE_TEXT_FIELDS = formFields(AnalysisOptions, 'file_id', WEBHOOK_URL_FIELD);

export const analyzeRoutes = new Hono<AppEnv>().post('/api/analyze-video', async (c) => {
  const videoId = newVideoId();
  const spec = { jobId: videoId, files: { file: r2Keys.upload(videoId) }, fields: ANALYZE_TEXT_FIELDS };
  return intake(c, spec, async ({ form, source, admit }) => {
    const file = await source();
    if (!file)
      throw new ApiError('missing_file', 'the "file" field with the video is required', { field: 'file' });
    const options = parseFormOptions(AnalysisOptions, form.fields);
    const webhook = await webhookOf(c, form.fields);
    await admit();
    await submitJob(c.env, {
      video_id: videoId,
      kind: 'analysis',
      tenant: c.get('tenant').id,
      source: file,
      audio: null,
      options,
      webhook,
    });
    return { body: { video_id: videoId, status: 'pending' } satisfies JobCreated };
  });
});
