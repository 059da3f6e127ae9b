import { describe, expect, it } from 'vitest';
import { call, expectError } from './helpers.js';

describe('authentication', () => {
  it('should accept the key in the X-API-Key header', async () => {
    const res = await call('/api/status/vid_AAAAAAAAAAAAAAAAAAAAAA');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'not_found' });
  });

  it('should accept the key in the api_key query parameter', async () => {
    const res = await call('/status/vid_AAAAAAAAAAAAAAAAAAAAAA?api_key=test-key-bob', { key: null });
    expect(res.status).toBe(200);
  });

  it('should answer 401 with the structured error when the key is missing', async () => {
    for (const path of [
      '/api/status/x',
      '/status/x',
      '/api/analyze-video',
      '/api/process-video',
      '/api/register-avatar',
    ]) {
      const res = await call(path, { key: null, method: path.includes('status') ? 'GET' : 'POST' });
      await expectError(res, 401, 'unauthorized');
    }
  });

  it('should answer 401 for an unknown key', async () => {
    await expectError(await call('/api/status/x', { key: 'nope' }), 401, 'unauthorized');
  });

  it('should issue, use and revoke a production key through the admin API', async () => {
    const admin = { authorization: 'Bearer test-admin-token', 'content-type': 'application/json' };
    await expectError(await call('/admin/keys', { key: null }), 401, 'unauthorized');
    const created = await call('/admin/keys', {
      key: null,
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ name: 'ci' }),
    });
    expect(created.status).toBe(201);
    const { key, key_id } = await created.json<{ key: string; key_id: string }>();
    expect(key).toMatch(/^vk_/);
    expect((await call('/api/status/x', { key })).status).toBe(200);

    const list = await (
      await call('/admin/keys', { key: null, headers: admin })
    ).json<{ keys: Array<Record<string, unknown>> }>();
    const listed = list.keys.find((k) => k.key_id === key_id);
    expect(listed).toMatchObject({ name: 'ci', revoked_at: null });
    expect(JSON.stringify(list)).not.toContain(key); // only hashes are stored

    expect(
      (await call(`/admin/keys/${key_id}`, { key: null, method: 'DELETE', headers: admin })).status,
    ).toBe(200);
    await expectError(await call('/api/status/x', { key }), 401, 'unauthorized');
  });

  it('should carry a request id on every response', async () => {
    const res = await call('/healthz', { key: null });
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  });
});
