/**
 * @module api/avatars
 * POST /api/register-avatar — stores a video under the key's tenant for reuse by id.
 * DELETE /api/avatars/{avatar_id} — removes it (extension; 204, or 404 `not_found` for an
 * unknown id or another key's). Avatars are not subject to retention: they stay until deleted.
 */
import { Hono } from 'hono';
import { tenantStub } from '../auth/limits.js';
import type { AvatarRegistered } from '../contract/responses.js';
import { ApiError } from '../contract/errors.js';
import { isAvatarId, newAvatarId } from '../shared/ids.js';
import { findAvatar, saveAvatar } from '../storage/avatars.js';
import { r2Keys } from '../shared/r2-keys.js';
import { deletePrefix } from '../storage/purge.js';
import { intake } from './intake.js';
import type { AppEnv } from './middleware.js';
import { announceAvatar, WEBHOOK_URL_FIELD, webhookOf } from './webhooks.js';

/** The form's text fields (beside the `file` upload); the route table documents the same. */
export const AVATAR_TEXT_FIELDS = ['file_id', WEBHOOK_URL_FIELD];

export const avatarRoutes = new Hono<AppEnv>()
  .post('/api/register-avatar', async (c) => {
    const tenant = c.get('tenant').id;
    const avatarId = newAvatarId();
    return intake(
      c,
      { jobId: null, files: { file: r2Keys.avatar(tenant, avatarId) }, fields: AVATAR_TEXT_FIELDS },
      async ({ form, source }) => {
        const file = await source();
        if (!file)
          throw new ApiError('missing_file', 'the "file" field with the video is required', {
            field: 'file',
          });
        const webhook = await webhookOf(c, form.fields);
        const meta = await saveAvatar(c.env.MEDIA, tenant, avatarId, file);
        const at = Date.parse(meta.created_at);
        await tenantStub(c.env, tenant).indexJob({
          video_id: avatarId,
          kind: 'avatar',
          status: 'completed',
          progress: 100,
          created_at: at,
          finished_at: at,
          expires_at: null,
        });
        if (webhook) await announceAvatar(c, webhook, avatarId, at);
        return { body: { video_id: avatarId, registration_status: true } satisfies AvatarRegistered };
      },
    );
  })
  .delete('/api/avatars/:avatar_id', async (c) => {
    const tenant = c.get('tenant').id;
    const avatarId = c.req.param('avatar_id');
    const avatar = isAvatarId(avatarId) ? await findAvatar(c.env.MEDIA, tenant, avatarId) : null;
    if (!avatar) throw new ApiError('not_found', 'no registered avatar with this id for this API key');
    await tenantStub(c.env, tenant).unindexJob(avatarId);
    await deletePrefix(c.env.MEDIA, r2Keys.avatarPrefix(tenant, avatarId));
    // An avatar registered from a resumable upload points at it: that file is the avatar's alone.
    if (avatar.source.key.startsWith('resumable/')) await c.env.MEDIA.delete(avatar.source.key);
    return c.body(null, 204);
  });
