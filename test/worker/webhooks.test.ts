/**
 * Webhooks in production mode (WEBHOOK_ALLOW_LOOPBACK unset): the SSRF guard at submission and at
 * delivery, the signing secret, the delivery log. Hosts resolve through the fixture server's
 * DNS-over-HTTPS stub (test/support/doh.ts). Deliveries to a real receiver: test/e2e/webhooks.test.ts.
 */
import { env, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { WEBHOOK_OVERDUE_GRACE_MS, type TenantObject } from '../../src/jobs/tenant-object.js';
import { WebhookDeliveries } from '../../src/jobs/tenant/webhook-deliveries.js';
import { BOB, call, expectError, fixture, post, waitForJob, type Field } from './helpers.js';

const junk = async (): Promise<Field> => ({
  bytes: await fixture('generated/binary-junk.mp4'),
  filename: 'junk.mp4',
});
const tone = async (): Promise<Field> => ({
  bytes: await fixture('generated/tone-3s.mp4'),
  filename: 'tone.mp4',
  type: 'video/mp4',
});

interface Deliveries {
  data: {
    webhook_id: string;
    type: string;
    url: string;
    state: string;
    next_attempt_at: string | null;
    attempts: { at: string; status_code: number | null; error: string | null; duration_ms: number }[];
  }[];
}

async function deliveriesOf(id: string, until: (d: Deliveries) => boolean): Promise<Deliveries> {
  let last: Deliveries = { data: [] };
  await vi.waitUntil(
    async () => {
      const res = await call(`/api/jobs/${id}/webhooks`);
      expect(res.status).toBe(200);
      last = await res.json<Deliveries>();
      return until(last);
    },
    { timeout: 20_000, interval: 200 },
  );
  return last;
}

describe('webhook_url in production', () => {
  it.each([
    'http://127.0.0.1:8080/hook',
    'http://10.0.0.1/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]:8080/hook',
    'http://localhost/hook',
    'http://10-0-0-5.ip.test/hook', // a name that resolves to a private address
    'http://100-64-1-1.ip.test/hook',
    'ftp://example.com/hook',
    `https://example.com/${'x'.repeat(2040)}`,
  ])('should refuse %s with a 400 naming the field, creating nothing', async (url) => {
    await expectError(
      await post('/api/analyze-video', { file: await junk(), webhook_url: url }),
      400,
      'invalid_field',
      'webhook_url',
    );
  });

  it('should name the field on process-video and register-avatar too', async () => {
    await expectError(
      await post('/api/process-video', { file: await tone(), webhook_url: 'http://192.168.0.10/' }),
      400,
      'invalid_field',
      'webhook_url',
    );
    await expectError(
      await post('/api/register-avatar', { file: await tone(), webhook_url: 'http://[fe80::1]/' }),
      400,
      'invalid_field',
      'webhook_url',
    );
  });

  it('should refuse at delivery a host that resolves to a private address then, and log it', async () => {
    // The resolver fails at submission (accepted: the delivery checks again), then answers 10.0.0.5.
    const url = 'http://flaky-2-10-0-0-5.ip.test/hook';
    const res = await post('/api/analyze-video', { file: await junk(), webhook_url: url });
    expect(res.status).toBe(200);
    const { video_id } = await res.json<{ video_id: string }>();
    expect((await waitForJob(video_id)).status).toBe('failed');
    const log = await deliveriesOf(video_id, (d) => d.data[0]?.state === 'refused');
    expect(log.data).toHaveLength(1);
    expect(log.data[0]).toMatchObject({ type: 'job.failed', url, state: 'refused', next_attempt_at: null });
    expect(log.data[0].webhook_id).toMatch(/^msg_/);
    expect(log.data[0].attempts).toHaveLength(1);
    expect(log.data[0].attempts[0]).toMatchObject({ status_code: null });
    expect(log.data[0].attempts[0].error).toMatch(/10\.0\.0\.5.*private/);

    await expectError(await call(`/api/jobs/${video_id}/webhooks`, { key: BOB }), 404, 'not_found');
    expect((await call(`/api/jobs/${video_id}`, { method: 'DELETE' })).status).toBe(204);
    await expectError(await call(`/api/jobs/${video_id}/webhooks`), 404, 'not_found');
  });

  it('should record an avatar.registered delivery', async () => {
    const res = await post('/api/register-avatar', {
      file: await tone(),
      webhook_url: 'http://flaky-2-169-254-1-1.ip.test/',
    });
    expect(res.status).toBe(200);
    const { video_id } = await res.json<{ video_id: string }>();
    const log = await deliveriesOf(video_id, (d) => d.data[0]?.state === 'refused');
    expect(log.data[0].type).toBe('avatar.registered');
    expect(log.data[0].attempts[0].error).toMatch(/link-local/);
  });
});

describe('signing secret', () => {
  it('should keep one secret per key until rotated, then report the overlap', async () => {
    const first = await (
      await call('/api/webhooks/secret')
    ).json<{ secret: string; previous_valid_until: string | null }>();
    expect(first.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(first.previous_valid_until).toBeNull();
    expect((await (await call('/api/webhooks/secret')).json<{ secret: string }>()).secret).toBe(first.secret);
    const bob = await (await call('/api/webhooks/secret', { key: BOB })).json<{ secret: string }>();
    expect(bob.secret).not.toBe(first.secret);

    const rotated = await call('/api/webhooks/secret/rotate', { method: 'POST' });
    expect(rotated.status).toBe(200);
    const next = await rotated.json<{ secret: string; previous_valid_until: string }>();
    expect(next.secret).not.toBe(first.secret);
    const overlap = Date.parse(next.previous_valid_until) - Date.now();
    expect(overlap).toBeGreaterThan(23.9 * 3600_000);
    expect(overlap).toBeLessThanOrEqual(24 * 3600_000);
    expect((await (await call('/api/webhooks/secret')).json<{ secret: string }>()).secret).toBe(next.secret);
  });
});

describe('delivery leases and rounds (the tenant object storage)', () => {
  it('should send again, at the sweep, a pending delivery whose queue message was lost', async () => {
    const tenant = 'lost-message-tenant';
    const stub = env.TENANT.get(env.TENANT.idFromName(tenant));
    const video_id = 'vid_lostmessage';
    // A delivery tried once and due two minutes ago, with no message in the queue: as when the
    // send of its next round failed after the attempt was recorded.
    await runInDurableObject(stub, async (o: TenantObject, state) => {
      const deliveries = new WebhookDeliveries(state.storage.sql, state.storage);
      const now = Date.now();
      await o.indexJob({
        video_id,
        kind: 'analysis',
        status: 'failed',
        progress: 0,
        created_at: now - 200_000,
        finished_at: now - 190_000,
        expires_at: now + 86_400_000,
      });
      const d = {
        tenant,
        video_id,
        type: 'job.failed' as const,
        url: 'http://127.0.0.1:9/hook',
        origin: 'http://o',
      };
      deliveries.add({ ...d, body: '{}' }, 'msg_lost', now - 180_000);
      const attempt = {
        at: new Date(now - 180_000).toISOString(),
        status_code: 503,
        error: null,
        duration_ms: 5,
      };
      deliveries.record('msg_lost', attempt, 'pending', now - 2 * WEBHOOK_OVERDUE_GRACE_MS);
      await state.storage.setAlarm(now + 3_600_000); // run below, not by the clock
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    // The consumer takes the message sent again: a second attempt (refused here: loopback in production).
    let attempts = 0;
    await vi.waitUntil(
      async () => {
        attempts = await runInDurableObject(stub, async (_o: TenantObject, state) => {
          const row = new WebhookDeliveries(state.storage.sql, state.storage).list(video_id)[0];
          return row.attempts.length;
        });
        return attempts === 2;
      },
      { timeout: 20_000, interval: 200 },
    );
    expect(attempts).toBe(2);
  });

  it('should lease a delivery to one message per round, and drop stale and duplicate messages', async () => {
    const stub = env.TENANT.get(env.TENANT.idFromName('lease-test-tenant'));
    // The deliveries module on the object's real SQLite, without the queue (no consumer races the test).
    await runInDurableObject(stub, async (_o: TenantObject, state) => {
      const deliveries = new WebhookDeliveries(state.storage.sql, state.storage);
      let now = 1_000_000;
      const d = {
        tenant: 'lease-test-tenant',
        video_id: 'vid_lease',
        type: 'job.failed' as const,
        url: 'http://x.test/',
        origin: 'http://o',
      };
      const first = deliveries.add(d, 'msg_one', now);
      expect(first.send).toBe(true);
      const again = deliveries.add(d, 'msg_two', now);
      expect(again.row.id).toBe('msg_one'); // one delivery per event
      expect(deliveries.begin('msg_one', 0, now, 30_000)).toHaveProperty('go');
      // A duplicate of round 0 while leased waits for the lease; a legacy message (no round) too.
      expect(deliveries.begin('msg_one', 0, now, 30_000)).toEqual({ due_at: now + 30_000 });
      expect(deliveries.begin('msg_one', undefined, now, 30_000)).toEqual({ due_at: now + 30_000 });
      const attempt = { at: new Date(now).toISOString(), status_code: 500, error: null, duration_ms: 5 };
      expect(deliveries.record('msg_one', attempt, 'pending', now + 5_000)).toBe(true);
      expect(deliveries.add(d, 'msg_three', now).send).toBe(false); // tried once: a repeat sends no message
      // Round 0 is stale now; round 1 waits for its time, then goes.
      expect(deliveries.begin('msg_one', 0, now, 30_000)).toBeNull();
      expect(deliveries.begin('msg_one', 1, now, 30_000)).toEqual({ due_at: now + 5_000 });
      now += 5_000;
      expect(deliveries.begin('msg_one', 1, now, 30_000)).toHaveProperty('go');
      // A consumer that died mid-attempt: after its lease, the next message of the round takes over.
      now += 30_001;
      expect(deliveries.begin('msg_one', 1, now, 30_000)).toHaveProperty('go');
      deliveries.record('msg_one', attempt, 'delivered', null);
      expect(deliveries.begin('msg_one', 1, now, 30_000)).toBeNull();
      expect(deliveries.list('vid_lease')[0].attempts).toHaveLength(2);
      deliveries.deleteFor('vid_lease');
      expect(deliveries.list('vid_lease')).toEqual([]);
    });
  });
});
