/**
 * @module api/avatars
 * POST /api/register-avatar — stores a video under the key's tenant for reuse by id.
 */
import { Hono } from 'hono';
import { ApiError } from '../contract/errors.js';
import { numberVar } from '../env.js';
import { newAvatarId } from '../jobs/ids.js';
import { saveAvatar } from '../storage/avatars.js';
import { readUploadForm } from '../storage/form.js';
import { r2Keys } from '../storage/keys.js';
import { DEFAULT_MAX_UPLOAD_BYTES } from './analyze.js';
import type { AppEnv } from './middleware.js';

export const avatarRoutes = new Hono<AppEnv>().post('/api/register-avatar', async (c) => {
  const tenant = c.get('tenant').id;
  const avatarId = newAvatarId();
  const key = r2Keys.avatar(tenant, avatarId);
  const form = await readUploadForm(c.env.MEDIA, c.req.raw, {
    files: { file: key },
    fields: [],
    maxFileBytes: numberVar(c.env.MAX_UPLOAD_BYTES, DEFAULT_MAX_UPLOAD_BYTES),
  });
  const source = form.files.file;
  if (!source) throw new ApiError('missing_file', 'the "file" field with the video is required', { field: 'file' });
  await saveAvatar(c.env.MEDIA, tenant, avatarId, source);
  return c.json({ video_id: avatarId, registration_status: true });
});
