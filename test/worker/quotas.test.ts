/**
 * Issue #34: per-key bounds of the resumable uploads (sessions held, bytes parked in their parts),
 * each a 429 with its reason, and a stray part that never makes an upload uncompletable.
 * Each test uses its own development key (a tenant of its own), so counts start at zero.
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index.js';
import { BASE, expectError, fixture } from './helpers.js';

const MiB = 1024 * 1024;

/** The Worker with its own key and settings. */
function client(key: string, vars: Record<string, string>) {
  return async (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('x-api-key', key);
    if (init.body instanceof Uint8Array) headers.set('content-length', String(init.body.byteLength));
    const ctx = createExecutionContext();
    const res = await worker.fetch(
      new Request(`${BASE}${path}`, { ...init, headers }) as never,
      { ...env, DEV_API_KEY: key, UPLOAD_PART_BYTES: String(5 * MiB), ...vars } as never,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return res;
  };
}
const open = async (api: ReturnType<typeof client>) => {
  const res = await api('/api/uploads', { method: 'POST' });
  return { res, id: res.status === 201 ? (await res.json<{ upload_id: string }>()).upload_id : '' };
};

describe('resumable upload quotas per key', () => {
  it('should refuse a session beyond UPLOAD_MAX_SESSIONS with reason open_uploads, and admit one after a delete', async () => {
    const api = client('quota-sessions-key', { UPLOAD_MAX_SESSIONS: '3' });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { res, id } = await open(api);
      expect(res.status).toBe(201);
      ids.push(id);
    }
    const refused = await expectError((await open(api)).res, 429, 'rate_limited');
    expect(refused.error).toMatchObject({ reason: 'open_uploads', limit: 3 });
    expect((await api(`/api/uploads/${ids[0]}`, { method: 'DELETE' })).status).toBe(204);
    expect((await open(api)).res.status).toBe(201);
  });

  it('should refuse a part that would park more than UPLOAD_MAX_HELD_BYTES, with reason upload_bytes', async () => {
    const api = client('quota-bytes-key', {
      UPLOAD_MAX_HELD_BYTES: String(12 * MiB),
      MAX_UPLOAD_BYTES: String(64 * MiB),
    });
    const part = new Uint8Array(5 * MiB).fill(7);
    const a = (await open(api)).id;
    const b = (await open(api)).id;
    expect((await api(`/api/uploads/${a}/parts/1`, { method: 'PUT', body: part })).status).toBe(200);
    expect((await api(`/api/uploads/${a}/parts/2`, { method: 'PUT', body: part })).status).toBe(200);
    const refused = await expectError(
      await api(`/api/uploads/${b}/parts/1`, { method: 'PUT', body: part }),
      429,
      'rate_limited',
    );
    expect(refused.error).toMatchObject({ reason: 'upload_bytes', limit: 12 * MiB });
    // Re-sending a part replaces it: no more bytes held.
    expect((await api(`/api/uploads/${a}/parts/2`, { method: 'PUT', body: part })).status).toBe(200);
    // Deleting an upload gives its bytes back.
    expect((await api(`/api/uploads/${a}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`/api/uploads/${b}/parts/1`, { method: 'PUT', body: part })).status).toBe(200);
  });

  it('should complete an upload with a stray part when told its last part, and explain how when not', async () => {
    const api = client('quota-stray-key', { MAX_UPLOAD_BYTES: String(1024 * MiB) });
    const video = await fixture('generated/tone-3s.mp4');
    const id = (await open(api)).id;
    expect((await api(`/api/uploads/${id}/parts/1`, { method: 'PUT', body: video })).status).toBe(200);
    expect((await api(`/api/uploads/${id}/parts/128`, { method: 'PUT', body: video })).status).toBe(200);
    const stuck = await expectError(
      await api(`/api/uploads/${id}/complete`, { method: 'POST' }),
      409,
      'upload_conflict',
    );
    expect(stuck.error.message).toMatch(/part 2 is missing.*"parts": N/);
    await expectError(
      await api(`/api/uploads/${id}/complete`, { method: 'POST', body: '{"parts": "one"}' }),
      400,
      'invalid_field',
      'parts',
    );
    const done = await api(`/api/uploads/${id}/complete`, { method: 'POST', body: '{"parts": 1}' });
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ file_id: id, size: video.byteLength });
  });
});
