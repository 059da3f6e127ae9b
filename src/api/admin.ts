/**
 * @module api/admin
 * Key management behind the `ADMIN_TOKEN` secret (Authorization: Bearer ...):
 * POST /admin/keys {name, limits?} → the new key (shown once); GET /admin/keys; DELETE /admin/keys/{key_id}.
 */
import { Hono } from 'hono';
import { createKey, digestsEqual, listKeys, revokeKey, sanitizeLimits } from '../auth/keys.js';
import { sha256Hex } from '../shared/digest.js';
import { ApiError } from '../contract/errors.js';
import { KeyRequest } from '../contract/keys.js';
import { refuseUnauthenticated, type AppEnv } from './middleware.js';

export const adminRoutes = new Hono<AppEnv>()
  .use('/admin/*', async function adminAuth(c, next) {
    const expected = c.env.ADMIN_TOKEN;
    if (!expected)
      throw new ApiError('not_configured', 'the admin API is disabled: set the ADMIN_TOKEN secret');
    // Token guesses count against the address like bad API keys (429 beyond UNAUTH_RATE_LIMIT_PER_MIN);
    // the valid token is never refused for them.
    const presented = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1] ?? '';
    if (!digestsEqual(await sha256Hex(presented), await sha256Hex(expected))) {
      throw refuseUnauthenticated(c, 'a valid admin token is required (Authorization: Bearer ...)');
    }
    await next();
  })
  .post('/admin/keys', async (c) => {
    const body = await c.req
      .json<{ name?: unknown; limits?: unknown }>()
      .catch(() => ({}) as { name?: unknown; limits?: unknown });
    const name = KeyRequest.shape.name.safeParse(body.name);
    if (!name.success)
      throw new ApiError('invalid_field', '"name" is required (1–100 characters)', { field: 'name' });
    const { key, record } = await createKey(c.env, name.data, sanitizeLimits(body.limits));
    return c.json({ ...record, key }, 201);
  })
  .get('/admin/keys', async (c) => c.json({ keys: await listKeys(c.env) }))
  .delete('/admin/keys/:key_id', async (c) => {
    const record = await revokeKey(c.env, c.req.param('key_id'));
    if (!record) throw new ApiError('not_found', 'no such key');
    return c.json(record);
  });
