/**
 * Hardening: rate limits and job quotas per key, Idempotency-Key, retention and DELETE,
 * security headers and logs, isolation between keys, resumable uploads.
 */
import {
  createExecutionContext,
  env,
  runDurableObjectAlarm,
  runInDurableObject,
  SELF,
  waitOnExecutionContext,
} from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import worker from '../../src/index.js';
import type { JobObject } from '../../src/jobs/job-object.js';
import type { JobIn, JobRecord } from '../../src/jobs/state.js';
import type { TenantObject } from '../../src/jobs/tenant-object.js';
import { requestFingerprint } from '../../src/api/admission.js';
import { hex } from '../../src/shared/digest.js';
import {
  ALICE,
  BASE,
  BOB,
  call,
  devTenant,
  expectError,
  fixture,
  form,
  post,
  status,
  waitForJob,
  type Field,
} from './helpers.js';

const admin = { authorization: 'Bearer test-admin-token', 'content-type': 'application/json' };

/** A production key with its own limits, through the admin API. */
async function keyWith(limits: Record<string, number>): Promise<{ key: string; tenant: string }> {
  const res = await call('/admin/keys', {
    key: null,
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ name: 'hardening', limits }),
  });
  expect(res.status).toBe(201);
  const body = await res.json<{ key: string; tenant: string; limits: Record<string, number> }>();
  expect(body.limits).toEqual(limits);
  return { key: body.key, tenant: body.tenant };
}

const tenantStub = (tenant: string) => env.TENANT.get(env.TENANT.idFromName(tenant));
const jobStub = (id: string) => env.JOB.get(env.JOB.idFromName(id));
const tone = async (): Promise<Field> => ({
  bytes: await fixture('generated/tone-3s.mp4'),
  filename: 'tone.mp4',
  type: 'video/mp4',
});
const keysUnder = async (prefix: string) => (await env.MEDIA.list({ prefix })).objects.map((o) => o.key);
const postWith = (
  path: string,
  fields: Record<string, Field>,
  key: string,
  headers: Record<string, string> = {},
) => call(path, { method: 'POST', body: form(fields), key, headers });

/** Pins `tenant`'s clock a second into a one-minute window, so a counting test cannot straddle two. */
async function pinClock(tenant: string) {
  const start = Date.now() - (Date.now() % 60_000) + 60_000;
  await runInDurableObject(tenantStub(tenant), (o: TenantObject) => {
    o.now = () => start + 1_000;
  });
}

describe('rate limits per key', () => {
  it('should answer 429 rate_limited with Retry-After and RateLimit headers beyond requests per minute', async () => {
    const { key: fresh, tenant } = await keyWith({ requests_per_minute: 3 });
    await pinClock(tenant);
    for (const remaining of [2, 1, 0]) {
      const res = await call('/api/jobs/vid_AAAAAAAAAAAAAAAAAAAAAA', { key: fresh, method: 'DELETE' });
      await expectError(res, 404, 'not_found');
      expect(res.headers.get('ratelimit-limit')).toBe('3');
      expect(res.headers.get('ratelimit-remaining')).toBe(String(remaining));
      expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    }
    const limited = await call('/api/register-avatar', {
      key: fresh,
      method: 'POST',
      body: form({ file: await tone() }),
    });
    const body = await expectError(limited, 429, 'rate_limited');
    expect(body.error).toMatchObject({ reason: 'requests_per_minute', limit: 3 });
    const retry = Number(limited.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    // The refused upload stored nothing, and other keys are not affected.
    expect((await call('/api/jobs/vid_AAAAAAAAAAAAAAAAAAAAAA', { key: BOB, method: 'DELETE' })).status).toBe(
      404,
    );
  });

  it('should count status polls in their own, higher bucket', async () => {
    const { key: fresh, tenant } = await keyWith({ requests_per_minute: 1, status_per_minute: 4 });
    await pinClock(tenant);
    await call('/api/jobs/vid_AAAAAAAAAAAAAAAAAAAAAA', { key: fresh, method: 'DELETE' });
    await expectError(
      await call('/api/jobs/vid_AAAAAAAAAAAAAAAAAAAAAA', { key: fresh, method: 'DELETE' }),
      429,
      'rate_limited',
    );
    for (let i = 0; i < 4; i++) {
      const res = await call(
        i % 2 ? '/status/vid_AAAAAAAAAAAAAAAAAAAAAA' : '/api/status/vid_AAAAAAAAAAAAAAAAAAAAAA',
        { key: fresh },
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('4');
    }
    const body = await expectError(
      await call('/api/status/vid_AAAAAAAAAAAAAAAAAAAAAA', { key: fresh }),
      429,
      'rate_limited',
    );
    expect((body.error as Record<string, unknown>).reason).toBe('status_per_minute');
  });

  it('should default development keys to the [vars] limits', async () => {
    const res = await call('/api/status/vid_AAAAAAAAAAAAAAAAAAAAAA');
    expect(res.headers.get('ratelimit-limit')).toBe('600');
    const api = await call('/api/jobs/vid_AAAAAAAAAAAAAAAAAAAAAA', { method: 'DELETE' });
    expect(api.headers.get('ratelimit-limit')).toBe('120');
  });

  it('should limit concurrent jobs and free the slot when a job ends', async () => {
    const { key, tenant } = await keyWith({ concurrent_jobs: 1 });
    const first = await postWith('/api/analyze-video', { file: await tone() }, key);
    expect(first.status).toBe(200);
    const { video_id } = await first.json<{ video_id: string }>();
    expect(await tenantStub(tenant).activeJobs()).toEqual([video_id]);

    const uploadsBefore = (await keysUnder('uploads/')).length;
    const second = await postWith(
      '/api/process-video',
      { file: await tone(), blur_background: 'false' },
      key,
    );
    const body = await expectError(second, 429, 'rate_limited');
    expect(body.error).toMatchObject({ reason: 'concurrent_jobs', limit: 1 });
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await keysUnder('uploads/')).length).toBe(uploadsBefore);
    // Registering an avatar creates no job: not limited by the job quota.
    expect((await postWith('/api/register-avatar', { file: await tone() }, key)).status).toBe(200);

    expect((await waitForJob(video_id, key)).status).toBe('completed');
    await vi.waitUntil(async () => (await tenantStub(tenant).activeJobs()).length === 0, { timeout: 5_000 });
    // The release is idempotent: a repeated notice changes nothing.
    expect(await tenantStub(tenant).releaseJob(video_id)).toBe(false);
    const third = await postWith('/api/analyze-video', { file: await tone() }, key);
    expect(third.status).toBe(200);
    await waitForJob((await third.json<{ video_id: string }>()).video_id, key);
  });

  it('should validate the form before admission: a full key gets 400 for an invalid form, not 429', async () => {
    const { key } = await keyWith({ concurrent_jobs: 1 });
    const first = await postWith('/api/analyze-video', { file: await tone() }, key);
    expect(first.status).toBe(200);
    await expectError(
      await postWith('/api/process-video', { file: await tone(), blur_background: 'maybe' }, key),
      400,
      'invalid_field',
    );
    await expectError(await postWith('/api/analyze-video', { file: await tone() }, key), 429, 'rate_limited');
    await waitForJob((await first.json<{ video_id: string }>()).video_id, key);
  });

  it('should admit exactly the limit from a burst of parallel submissions', async () => {
    const { key, tenant } = await keyWith({ concurrent_jobs: 2 });
    const file = await tone();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        postWith('/api/process-video', { file, blur_background: 'false' }, key),
      ),
    );
    const accepted = answers.filter((r) => r.status === 200);
    expect(accepted.length).toBe(2);
    expect(answers.filter((r) => r.status === 429).length).toBe(3);
    expect((await tenantStub(tenant).activeJobs()).length).toBe(2);
    for (const r of accepted) await waitForJob((await r.json<{ video_id: string }>()).video_id, key);
  });

  it('should reconcile slots with the jobs real states: a lost release or a dead request never locks the key', async () => {
    const { key, tenant } = await keyWith({ concurrent_jobs: 2 });
    const stub = tenantStub(tenant);
    // A request that died between admission and job creation (2 min ago), and a job that ended
    // without its release reaching the tenant.
    expect((await stub.admitJob('vid_ghostghostghostghost0', 2, Date.now() - 120_000)).allowed).toBe(true);
    const first = await postWith('/api/analyze-video', { file: await tone() }, key);
    const { video_id } = await first.json<{ video_id: string }>();
    expect((await waitForJob(video_id, key)).status).toBe('completed');
    // The job's own release may land just after its status reads completed: wait for it, or it
    // would free the slot taken back below.
    await vi.waitUntil(async () => (await stub.activeJobs()).length === 1, { timeout: 5_000 });
    await runInDurableObject(stub, async (t: TenantObject) => {
      await t.admitJob(video_id, 2); // the slot comes back, as if the release was lost
    });
    expect((await stub.activeJobs()).sort()).toEqual(['vid_ghostghostghostghost0', video_id].sort());
    const next = await postWith('/api/analyze-video', { file: await tone() }, key);
    expect(next.status).toBe(200);
    const nextId = (await next.json<{ video_id: string }>()).video_id;
    expect(await stub.activeJobs()).toEqual([nextId]);
    await waitForJob(nextId, key);
  });

  it('should free the slot of a request that failed validation', async () => {
    const { key, tenant } = await keyWith({ concurrent_jobs: 1 });
    await expectError(
      await postWith('/api/analyze-video', { file: await tone(), visual_analytics: 'yes' }, key),
      400,
      'invalid_field',
    );
    await expectError(await postWith('/api/process-video', { description: 'x' }, key), 400, 'missing_file');
    expect(await tenantStub(tenant).activeJobs()).toEqual([]);
  });
});

describe('Idempotency-Key', () => {
  it('should return the same video_id for a repeated request, without new work or a second upload', async () => {
    const file = await tone();
    const headers = { 'idempotency-key': 'order-1' };
    const first = await postWith('/api/analyze-video', { file, visual_analytics: 'false' }, ALICE, headers);
    expect(first.status).toBe(200);
    const a = await first.json<{ video_id: string }>();
    const uploads = await keysUnder('uploads/');
    const again = await postWith('/api/analyze-video', { visual_analytics: 'false', file }, ALICE, headers);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(a);
    expect(await keysUnder('uploads/')).toEqual(uploads); // the duplicate upload was deleted

    // Another key with the same Idempotency-Key is another request.
    const bob = await postWith('/api/analyze-video', { file, visual_analytics: 'false' }, BOB, headers);
    expect((await bob.json<{ video_id: string }>()).video_id).not.toBe(a.video_id);
    await waitForJob(a.video_id);
  });

  it('should answer 422 idempotency_key_reused for the same key with another request', async () => {
    const file = await tone();
    const headers = { 'idempotency-key': 'order-2' };
    expect((await postWith('/api/analyze-video', { file }, ALICE, headers)).status).toBe(200);
    const uploads = await keysUnder('uploads/');
    const flipped = {
      ...(file as { bytes: Uint8Array }),
      bytes: (file as { bytes: Uint8Array }).bytes.slice(),
    };
    flipped.bytes[flipped.bytes.length - 1] ^= 1; // same size, one bit differs
    for (const [path, fields] of [
      ['/api/analyze-video', { file: flipped }],
      ['/api/analyze-video', { file, visual_analytics: 'true' }],
      ['/api/process-video', { file, blur_background: 'false' }],
    ] as const) {
      const res = await postWith(path, fields as Record<string, Field>, ALICE, headers);
      await expectError(res, 422, 'idempotency_key_reused');
    }
    expect(await keysUnder('uploads/')).toEqual(uploads);
  });

  it('should replay a known key even when every job slot is taken', async () => {
    const { key } = await keyWith({ concurrent_jobs: 1 });
    const file = await tone();
    const headers = { 'idempotency-key': 'slot-1' };
    const first = await (
      await postWith('/api/analyze-video', { file }, key, headers)
    ).json<{ video_id: string }>();
    const again = await postWith('/api/analyze-video', { file }, key, headers);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(first);
    await expectError(
      await postWith('/api/analyze-video', { file }, key, { 'idempotency-key': 'slot-2' }),
      429,
      'rate_limited',
    );
    await waitForJob(first.video_id, key);
  });

  it('should answer 409 idempotency_in_progress while the same request is still being handled', async () => {
    const file = await tone();
    const bytes = (file as { bytes: Uint8Array }).bytes;
    const keyId = (await devTenant(ALICE)).slice('dev_'.length);
    const fingerprint = await requestFingerprint('POST', '/api/register-avatar', keyId, {
      files: { file: { key: 'x', size: bytes.length, filename: null, content_type: null } },
      fields: {},
      digests: { file: hex(await crypto.subtle.digest('SHA-256', bytes)) },
    });
    await tenantStub(await devTenant(ALICE)).idempotencyBegin('busy-1', fingerprint, 86_400_000);
    const uploads = await keysUnder('avatars/');
    const res = await postWith('/api/register-avatar', { file }, ALICE, { 'idempotency-key': 'busy-1' });
    await expectError(res, 409, 'idempotency_in_progress');
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await keysUnder('avatars/')).toEqual(uploads);
  });

  it('should replay register-avatar and reject a malformed key', async () => {
    const file = await tone();
    const headers = { 'idempotency-key': 'avatar-1' };
    const a = await (await postWith('/api/register-avatar', { file }, ALICE, headers)).json();
    const b = await (await postWith('/api/register-avatar', { file }, ALICE, headers)).json();
    expect(b).toEqual(a);
    await expectError(
      await postWith('/api/register-avatar', { file }, ALICE, { 'idempotency-key': 'x'.repeat(256) }),
      400,
      'invalid_request',
    );
  });

  it('should not store failed requests, and forget keys after 24 h', async () => {
    const headers = { 'idempotency-key': 'order-3' };
    await expectError(
      await postWith('/api/analyze-video', { file: await tone(), visual_analytics: 'maybe' }, ALICE, headers),
      400,
      'invalid_field',
    );
    const ok = await postWith('/api/analyze-video', { file: await tone() }, ALICE, headers);
    expect(ok.status).toBe(200);
    const first = await ok.json<{ video_id: string }>();
    // Age the record past its TTL.
    await runInDurableObject(tenantStub(await devTenant(ALICE)), async (_obj: TenantObject, state) => {
      const rec = await state.storage.get<{ expires_at: number }>('idem:order-3');
      expect(rec!.expires_at - Date.now()).toBeGreaterThan(23 * 3600_000);
      await state.storage.put('idem:order-3', { ...rec, expires_at: Date.now() - 1 });
    });
    // The tenant's sweep alarm deletes expired keys.
    expect(await runDurableObjectAlarm(tenantStub(await devTenant(ALICE)))).toBe(true);
    expect(
      await runInDurableObject(tenantStub(await devTenant(ALICE)), (_o: TenantObject, state) =>
        state.storage.get('idem:order-3'),
      ),
    ).toBeUndefined();
    const later = await postWith('/api/analyze-video', { file: await tone() }, ALICE, headers);
    expect((await later.json<{ video_id: string }>()).video_id).not.toBe(first.video_id);
    await waitForJob(first.video_id);
  });
});

describe('retention and deletion', () => {
  it("should delete a finished job's R2 objects and record when its retention expires", async () => {
    const res = await post('/api/analyze-video', { file: await tone() });
    const { video_id } = await res.json<{ video_id: string }>();
    expect((await waitForJob(video_id)).status).toBe('completed');
    expect(await keysUnder(`uploads/${video_id}/`)).toHaveLength(1);
    expect(await env.MEDIA.head(`results/${video_id}.json`)).not.toBeNull();
    const stub = jobStub(video_id);
    // One alarm schedule: after the end it points at finished_at + RETENTION_DAYS (7). (A slot
    // release that failed once points it at the release retry first: wait that one out.)
    const job = (await stub.get()) as JobIn<'completed'>;
    let alarm: number | null = null;
    await vi.waitUntil(
      async () => {
        alarm = await runInDurableObject(stub, (_o: JobObject, state) => state.storage.getAlarm());
        return alarm !== null && alarm - job.finished_at > 86_400_000;
      },
      { timeout: 45_000, interval: 500 },
    );
    expect(alarm! - job.finished_at).toBeGreaterThan(6.9 * 86_400_000);
    expect(alarm! - job.finished_at).toBeLessThan(7.1 * 86_400_000);
    // Not yet: the alarm re-arms and keeps everything.
    await runDurableObjectAlarm(stub);
    expect((await status(video_id)).status).toBe('completed');
    // Eight days later.
    await runInDurableObject(stub, async (obj: JobObject, state) => {
      const old = { ...job, finished_at: Date.now() - 8 * 86_400_000 };
      await state.storage.put('job', old);
      (obj as unknown as { record: JobRecord }).record = old;
      await state.storage.setAlarm(Date.now() + 60_000);
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    for (const prefix of [
      `uploads/${video_id}/`,
      `work/${video_id}/`,
      `outputs/${video_id}/`,
      `results/${video_id}`,
    ]) {
      expect(await keysUnder(prefix)).toEqual([]);
    }
    expect((await status(video_id)).status).toBe('not_found');
    expect(await stub.get()).toBeNull();
  });

  it('should DELETE a finished processing job with all its files; 404 for unknown ids and other keys', async () => {
    const res = await post('/api/process-video', { file: await tone(), blur_background: 'false' });
    const { video_id } = await res.json<{ video_id: string }>();
    const done = await waitForJob(video_id);
    expect(done.status).toBe('completed');
    expect(await keysUnder(`outputs/${video_id}/`)).toHaveLength(1);

    await expectError(await call(`/api/jobs/${video_id}`, { method: 'DELETE', key: BOB }), 404, 'not_found');
    expect((await status(video_id)).status).toBe('completed');
    const del = await call(`/api/jobs/${video_id}`, { method: 'DELETE' });
    expect(del.status).toBe(204);
    expect(await del.text()).toBe('');
    for (const prefix of [
      `uploads/${video_id}/`,
      `work/${video_id}/`,
      `outputs/${video_id}/`,
      `results/${video_id}`,
    ]) {
      expect(await keysUnder(prefix)).toEqual([]);
    }
    expect((await status(video_id)).status).toBe('not_found');
    // The old download link now finds nothing.
    await expectError(await SELF.fetch(done.download_url!), 404, 'not_found');
    await expectError(await call(`/api/jobs/${video_id}`, { method: 'DELETE' }), 404, 'not_found');
    for (const id of ['vid_AAAAAAAAAAAAAAAAAAAAAA', 'avt_AAAAAAAAAAAAAAAAAAAAAA', '..%2F..%2Fkeys', 'x']) {
      await expectError(await call(`/api/jobs/${id}`, { method: 'DELETE' }), 404, 'not_found');
    }
  });

  it('should DELETE a running job: it stops, its slot is freed, and nothing of it stays', async () => {
    const { key, tenant } = await keyWith({ concurrent_jobs: 1 });
    const res = await postWith('/api/analyze-video', { file: await tone(), visual_analytics: 'true' }, key);
    const { video_id } = await res.json<{ video_id: string }>();
    expect((await call(`/api/jobs/${video_id}`, { method: 'DELETE', key })).status).toBe(204);
    expect((await status(video_id, key)).status).toBe('not_found');
    expect(await tenantStub(tenant).activeJobs()).toEqual([]);
    // A consumer that was mid-way may still write; the tombstone alarm purges again.
    const stub = jobStub(video_id);
    await new Promise((r) => setTimeout(r, 1500));
    await runInDurableObject(stub, async (_o: JobObject, state) => {
      const t = await state.storage.get<{ purge_at: number }>('tombstone');
      expect(t).toBeDefined();
      await state.storage.put('tombstone', { ...t, purge_at: Date.now() - 1 });
    });
    await runDurableObjectAlarm(stub);
    for (const prefix of [
      `uploads/${video_id}/`,
      `work/${video_id}/`,
      `outputs/${video_id}/`,
      `results/${video_id}`,
    ]) {
      expect(await keysUnder(prefix)).toEqual([]);
    }
    expect((await postWith('/api/register-avatar', { file: await tone() }, key)).status).toBe(200);
  });

  it('should DELETE an avatar (never expired otherwise); 404 for another key', async () => {
    const reg = await post('/api/register-avatar', { file: await tone() });
    const { video_id: avatar } = await reg.json<{ video_id: string }>();
    const tenant = await devTenant(ALICE);
    expect(await keysUnder(`avatars/${tenant}/${avatar}/`)).toHaveLength(2);
    await expectError(await call(`/api/avatars/${avatar}`, { method: 'DELETE', key: BOB }), 404, 'not_found');
    expect(await keysUnder(`avatars/${tenant}/${avatar}/`)).toHaveLength(2);
    expect((await call(`/api/avatars/${avatar}`, { method: 'DELETE' })).status).toBe(204);
    expect(await keysUnder(`avatars/${tenant}/${avatar}/`)).toEqual([]);
    await expectError(
      await post('/api/process-video', { video_id: avatar, blur_background: 'false' }),
      404,
      'avatar_not_found',
      'video_id',
    );
    await expectError(await call(`/api/avatars/${avatar}`, { method: 'DELETE' }), 404, 'not_found');
    await expectError(await call('/api/avatars/..%2F..%2Fkeys', { method: 'DELETE' }), 404, 'not_found');
  });
});

describe('security', () => {
  afterEach(() => vi.restoreAllMocks());

  it('should never log a key or a token', async () => {
    const lines: string[] = [];
    for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, level).mockImplementation(
        (...args: unknown[]) => void lines.push(args.map(String).join(' ')),
      );
    }
    await call(`/status/vid_AAAAAAAAAAAAAAAAAAAAAA?api_key=${BOB}&token=secret-token-123`, { key: null });
    await call('/api/status/vid_AAAAAAAAAAAAAAAAAAAAAA?api_key=test-key-wrong');
    await call('/api/status/x', { key: 'test-key-invalid-one' });
    await call('/admin/keys', { key: null, headers: { authorization: 'Bearer test-admin-token' } });
    await call('/files/outputs/x/video.mp4?expires=1&token=secret-token-456', { key: null });
    await postWith('/api/analyze-video', { file: await tone(), api_key: ALICE }, ALICE);
    const joined = lines.join('\n');
    expect(lines.length).toBeGreaterThan(3);
    for (const secret of [
      ALICE,
      BOB,
      'test-key-wrong',
      'test-key-invalid-one',
      'test-admin-token',
      'secret-token-123',
      'secret-token-456',
    ]) {
      expect(joined).not.toContain(secret);
    }
  });

  it('should send security headers, and private no-store caching on every API answer', async () => {
    const responses = [
      await call('/api/status/vid_AAAAAAAAAAAAAAAAAAAAAA'),
      await call('/status/vid_AAAAAAAAAAAAAAAAAAAAAA'),
      await call('/api/status/x', { key: null }),
      await call('/api/nope'),
      await post('/api/analyze-video', { visual_analytics: 'true' }),
      await call('/api/jobs/vid_AAAAAAAAAAAAAAAAAAAAAA', { method: 'DELETE' }),
      await call('/admin/keys', { key: null, headers: admin }),
    ];
    for (const res of responses) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      await res.arrayBuffer();
    }
    const health = await call('/healthz', { key: null });
    expect(health.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('should keep jobs, results, avatars, uploads and files apart between keys', async () => {
    // Jobs and results.
    const analysis = (
      await (await post('/api/analyze-video', { file: await tone() })).json<{ video_id: string }>()
    ).video_id;
    const done = await waitForJob(analysis);
    expect(done.result).not.toBeNull();
    expect(await status(analysis, BOB)).toEqual({
      status: 'not_found',
      progress: 0,
      download_url: null,
      result: null,
      error_message: null,
    });
    await expectError(await call(`/api/jobs/${analysis}`, { method: 'DELETE', key: BOB }), 404, 'not_found');
    // Avatars.
    const avatar = (
      await (await post('/api/register-avatar', { file: await tone() })).json<{ video_id: string }>()
    ).video_id;
    await expectError(
      await post('/api/process-video', { video_id: avatar, blur_background: 'false' }, BOB),
      404,
      'avatar_not_found',
      'video_id',
    );
    await expectError(await call(`/api/avatars/${avatar}`, { method: 'DELETE', key: BOB }), 404, 'not_found');
    // Resumable uploads.
    const upload = await (await call('/api/uploads', { method: 'POST' })).json<{ upload_id: string }>();
    const bytes = ((await tone()) as { bytes: Uint8Array }).bytes;
    await expectError(
      await call(`/api/uploads/${upload.upload_id}/parts/1`, { method: 'PUT', body: bytes, key: BOB }),
      404,
      'not_found',
    );
    expect(
      (await call(`/api/uploads/${upload.upload_id}/parts/1`, { method: 'PUT', body: bytes })).status,
    ).toBe(200);
    await expectError(
      await call(`/api/uploads/${upload.upload_id}/complete`, { method: 'POST', key: BOB }),
      404,
      'not_found',
    );
    expect((await call(`/api/uploads/${upload.upload_id}/complete`, { method: 'POST' })).status).toBe(200);
    await expectError(await call(`/api/uploads/${upload.upload_id}`, { key: BOB }), 404, 'not_found');
    await expectError(
      await post('/api/analyze-video', { file_id: upload.upload_id }, BOB),
      404,
      'not_found',
      'file_id',
    );
    await expectError(
      await call(`/api/uploads/${upload.upload_id}`, { method: 'DELETE', key: BOB }),
      404,
      'not_found',
    );
    expect((await call(`/api/uploads/${upload.upload_id}`, { method: 'DELETE' })).status).toBe(204);
    // Files: a link signs one object; it opens no other (another job's result, a key record).
    const proc = (
      await (
        await post('/api/process-video', { file: await tone(), blur_background: 'false' })
      ).json<{ video_id: string }>()
    ).video_id;
    const url = new URL((await waitForJob(proc)).download_url!);
    for (const path of [
      `/files/results/${analysis}.json`,
      '/files/keys/',
      `/files/outputs/${proc}/../../results/${analysis}.json`,
    ]) {
      const other = new URL(url);
      other.pathname = path;
      await expectError(await SELF.fetch(other), 403, 'invalid_signature');
    }
  });
});

describe('resumable uploads', () => {
  /** The worker with other settings than the test config (part size, size limit). */
  async function direct(
    path: string,
    init: RequestInit & { key?: string } = {},
    vars: Record<string, string> = {},
  ) {
    const headers = new Headers(init.headers);
    headers.set('x-api-key', init.key ?? ALICE);
    // A Request built here has no Content-Length until sent; a real client sends one.
    if (init.body instanceof Uint8Array) headers.set('content-length', String(init.body.byteLength));
    const ctx = createExecutionContext();
    const res = await worker.fetch(
      new Request(`${BASE}${path}`, { ...init, headers }) as never,
      { ...env, ...vars } as never,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return res;
  }
  const vars = { UPLOAD_PART_BYTES: String(5 * 1024 * 1024), MAX_UPLOAD_BYTES: String(12 * 1024 * 1024) };

  it('should assemble parts into a file that a job takes by file_id, once', async () => {
    const created = await direct('/api/uploads', { method: 'POST' }, vars);
    expect(created.status).toBe(201);
    const { upload_id, part_size } = await created.json<{ upload_id: string; part_size: number }>();
    expect(part_size).toBe(5 * 1024 * 1024);
    const video = ((await tone()) as { bytes: Uint8Array }).bytes;
    const whole = new Uint8Array(part_size + video.length);
    whole.set(video); // a real MP4 header, then padding the probe ignores
    const part1 = whole.slice(0, part_size);
    const part2 = whole.slice(part_size);
    // Out of order, and a part re-sent (a retry) replaces the first attempt.
    expect(
      (await direct(`/api/uploads/${upload_id}/parts/2`, { method: 'PUT', body: part2 }, vars)).status,
    ).toBe(200);
    await expectError(
      await direct(`/api/uploads/${upload_id}/complete`, { method: 'POST' }, vars),
      409,
      'upload_conflict',
    );
    expect(
      (await direct(`/api/uploads/${upload_id}/parts/1`, { method: 'PUT', body: part1.slice(0, 1000) }, vars))
        .status,
    ).toBe(200);
    await expectError(
      await direct(`/api/uploads/${upload_id}/complete`, { method: 'POST' }, vars),
      409,
      'upload_conflict',
    );
    expect(
      (await direct(`/api/uploads/${upload_id}/parts/1`, { method: 'PUT', body: part1 }, vars)).status,
    ).toBe(200);
    await expectError(
      await direct(`/api/uploads/${upload_id}/parts/4`, { method: 'PUT', body: part1 }, vars),
      413,
      'payload_too_large',
    );
    await expectError(
      await direct(`/api/uploads/${upload_id}/parts/0`, { method: 'PUT', body: part2 }, vars),
      400,
      'invalid_request',
    );
    const progress = await (
      await direct(`/api/uploads/${upload_id}`, {}, vars)
    ).json<{ parts: unknown[]; size: number }>();
    expect(progress).toMatchObject({
      parts: [
        { part: 1, size: part_size },
        { part: 2, size: video.length },
      ],
      size: whole.length,
    });
    const done = await direct(`/api/uploads/${upload_id}/complete`, { method: 'POST' }, vars);
    expect(await done.json()).toEqual({ file_id: upload_id, size: whole.length });
    const stored = await env.MEDIA.head(`resumable/${await devTenant(ALICE)}/${upload_id}/source`);
    expect(stored!.size).toBe(whole.length);

    await expectError(
      await post('/api/analyze-video', { file_id: upload_id, file: await tone() }),
      400,
      'conflicting_fields',
      'file_id',
    );
    const job = await post('/api/analyze-video', { file_id: upload_id });
    expect(job.status).toBe(200);
    const { video_id } = await job.json<{ video_id: string }>();
    await expectError(await post('/api/analyze-video', { file_id: upload_id }), 404, 'not_found', 'file_id');
    const result = await waitForJob(video_id);
    expect(result.status).toBe('completed');
    // The job owns the file now: DELETE removes it too.
    expect((await call(`/api/jobs/${video_id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await keysUnder(`resumable/${await devTenant(ALICE)}/${upload_id}/`)).toEqual([]);
  });

  it('should refuse text, abort on DELETE, and abort abandoned uploads by alarm', async () => {
    const text = await (await call('/api/uploads', { method: 'POST' })).json<{ upload_id: string }>();
    await call(`/api/uploads/${text.upload_id}/parts/1`, {
      method: 'PUT',
      body: 'just some plain text, not a video at all',
    });
    await expectError(
      await call(`/api/uploads/${text.upload_id}/complete`, { method: 'POST' }),
      415,
      'unsupported_media_type',
    );
    await expectError(await call(`/api/uploads/${text.upload_id}`), 404, 'not_found');

    const gone = await (await call('/api/uploads', { method: 'POST' })).json<{ upload_id: string }>();
    expect((await call(`/api/uploads/${gone.upload_id}`, { method: 'DELETE' })).status).toBe(204);
    await expectError(
      await call(`/api/uploads/${gone.upload_id}/parts/1`, { method: 'PUT', body: 'x' }),
      404,
      'not_found',
    );

    const idle = await (
      await call('/api/uploads', { method: 'POST', key: BOB })
    ).json<{ upload_id: string }>();
    const stub = tenantStub(await devTenant(BOB));
    await runInDurableObject(stub, async (_o: TenantObject, state) => {
      const s = await state.storage.get<{ touched_at: number }>(`upload:${idle.upload_id}`);
      await state.storage.put(`upload:${idle.upload_id}`, { ...s, touched_at: Date.now() - 2 * 86_400_000 });
    });
    await runDurableObjectAlarm(stub);
    await expectError(await call(`/api/uploads/${idle.upload_id}`, { key: BOB }), 404, 'not_found');
  });
});

describe('form and sniffing edges (issue #12, finding 7)', () => {
  it('should name the field of an over-long text value, whatever its length', async () => {
    for (const size of [5_001, 1024 * 1024]) {
      const res = await post('/api/process-video', {
        file: await tone(),
        blur_background: 'false',
        description: 'a'.repeat(size),
      });
      await expectError(res, 400, 'invalid_field', 'description');
    }
  });

  it('should refuse short JSON and UTF-16 text at upload as not media', async () => {
    const utf16 = new Uint8Array([
      0xff,
      0xfe,
      ...[...'this is a letter, not a video'].flatMap((c) => [c.charCodeAt(0), 0]),
    ]);
    for (const bytes of [new TextEncoder().encode('{"a":1}'), utf16]) {
      const res = await post('/api/analyze-video', {
        file: { bytes, filename: 'clip.mp4', type: 'video/mp4' },
      });
      await expectError(res, 415, 'unsupported_media_type');
    }
  });
});

describe('wrong methods (issue #12, finding 7)', () => {
  it('should answer 405 with Allow on a path that exists under other methods, 404 elsewhere', async () => {
    const get = await call('/api/analyze-video', { method: 'GET' });
    await expectError(get, 405, 'method_not_allowed');
    expect(get.headers.get('allow')).toBe('POST');
    const post = await call('/api/status/vid_aaaaaaaaaaaaaaaaaaaaaa', { method: 'POST' });
    await expectError(post, 405, 'method_not_allowed');
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    await expectError(await call('/api/nothing-here', { method: 'GET' }), 404, 'not_found');
    // The router is strict: a trailing slash is no route at all, under any method.
    await expectError(
      await call('/api/jobs/vid_aaaaaaaaaaaaaaaaaaaaaa/', { method: 'DELETE' }),
      404,
      'not_found',
    );
  });
});
