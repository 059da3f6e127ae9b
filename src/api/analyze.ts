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
import { readUploadForm } from '../storage/form.js';
import { r2Keys } from '../shared/r2-keys.js';
import { maxUploadBytes } from '../storage/upload-limit.js';
import { openGate } from './admission.js';
import { formFields, parseFormOptions } from './form-options.js';
import type { AppEnv } from './middleware.js';
import { consumeResumable, resumableSource } from './uploads.js';

export const analyzeRoutes = new Hono<AppEnv>().post('/api/analyze-video', async (c) => {
  const videoId = newVideoId();
  const gate = await openGate(c, videoId);
  try {
    const form = await readUploadForm(c.env.MEDIA, c.req.raw, {
      files: { file: r2Keys.upload(videoId) },
      fields: formFields(AnalysisOptions, 'file_id'),
      maxFileBytes: maxUploadBytes(c.env),
      hash: gate.hashing,
    });
    const replay = await gate.check(form);
    if (replay) return replay;
    try {
      const source = (await resumableSource(c, form, 'file')) ?? form.files.file;
      if (!source) throw new ApiError('missing_file', 'the "file" field with the video is required', { field: 'file' });
      const options = parseFormOptions(AnalysisOptions, form.fields);
      await gate.admit();
      await submitJob(c.env, {
        video_id: videoId,
        kind: 'analysis',
        tenant: c.get('tenant').id,
        source,
        audio: null,
        options,
      });
      await consumeResumable(c, form);
    } catch (err) {
      await c.env.MEDIA.delete(r2Keys.upload(videoId));
      throw err;
    }
    const body: JobCreated = { video_id: videoId, status: 'pending' };
    await gate.finish(body);
    return c.json(body);
  } catch (err) {
    await gate.release();
    throw err;
  }
});
