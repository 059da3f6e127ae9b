/**
 * Webhooks against the real `npm start` stack and real local receivers: a receiver that is down,
 * then refuses, then accepts; signatures checked with the `standardwebhooks` library and the key's
 * secret; retries keep their webhook-id; a receiver that never answers costs one 10 s attempt;
 * deleting a job stops its pending deliveries; a rotation signs with both secrets.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/client/cli.js';
import { VideoApiClient, VideoApiError, verifyWebhook } from '../../src/client/index.js';
import { generateFixtures } from '../support/fixtures.js';
import { SHARED_MEDIA } from '../support/services.js';
import { freePort, startReceiver, type Receiver } from './support/receiver.js';
import { startStack, type Stack } from './support/stack.js';

const KEY = 'e2e-webhooks-key';
let stack: Stack;
let fixtures: string;
const receivers: Receiver[] = [];
/** The completed JFK analysis of the first test (the client tests read its captions). */
let jfk = '';

beforeAll(async () => {
  fixtures = generateFixtures();
  stack = await startStack({
    port: 8842,
    containerPort: 8843,
    keys: `${KEY},e2e-webhooks-other`,
    // Retries a second or two apart, so the test sees several within its time.
    env: { WEBHOOK_RETRY_BASE_DELAY_SEC: '1', WEBHOOK_RETRY_MAX_DELAY_SEC: '2' },
  });
}, 200_000);
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await stack?.stop();
});

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${stack.base}${path}`, { ...init, headers: { 'x-api-key': KEY, ...init.headers } });

async function submit(path: string, file: string, fields: Record<string, string>): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([readFileSync(file)]), file.split('/').pop());
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await api(path, { method: 'POST', body: form });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { video_id: string }).video_id;
}

interface Attempt {
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}
interface Delivery {
  webhook_id: string;
  type: string;
  state: string;
  attempts: Attempt[];
}
const deliveries = async (id: string): Promise<Delivery[]> =>
  ((await (await api(`/api/jobs/${id}/webhooks`)).json()) as { data: Delivery[] }).data;

const verify = (secret: string, r: { body: string; headers: Record<string, unknown> }) =>
  new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as {
    type: string;
    timestamp: string;
    data: Record<string, unknown>;
  };

describe('webhooks on the real stack', () => {
  // The first three tests wait on the retry schedule, a 10 s hang and an 8 s quiet period, each with
  // its own receiver and job: they run side by side. The rotation test runs after them, alone (a
  // rotation during the first test would change the secret its deliveries are checked against).
  it.concurrent(
    'should deliver to a receiver that was down, then refused, with one webhook-id and a valid signature',
    async ({ expect }) => {
      const port = await freePort();
      const id = await submit('/api/analyze-video', join(SHARED_MEDIA, 'speech/jfk.wav'), {
        webhook_url: `http://127.0.0.1:${port}/hook`,
      });
      // Down: attempts fail (connection refused) and are retried.
      await vi.waitUntil(async () => ((await deliveries(id))[0]?.attempts.length ?? 0) >= 2, {
        timeout: 120_000,
        interval: 500,
      });
      const down = (await deliveries(id))[0];
      expect(down.state).toBe('pending');
      expect(down.attempts.every((a) => a.status_code === null && a.error)).toBe(true);

      // Up, but refusing once (500), then accepting.
      const receiver = await startReceiver(port, 500);
      receivers.push(receiver);
      await vi.waitUntil(() => receiver.received.length >= 1, { timeout: 30_000, interval: 100 });
      receiver.answer = 200;
      await vi.waitUntil(async () => (await deliveries(id))[0].state === 'delivered', {
        timeout: 30_000,
        interval: 300,
      });

      const log = (await deliveries(id))[0];
      expect(log.type).toBe('job.completed');
      expect(log.attempts.at(-1)!.status_code).toBe(200);
      expect(log.attempts.some((a) => a.status_code === 500)).toBe(true);
      expect(log.attempts.length).toBeGreaterThanOrEqual(4);
      // Every request the receiver saw is the same event: one webhook-id, one body.
      expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(
        new Set([log.webhook_id]),
      );
      expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);

      const { secret } = (await (await api('/api/webhooks/secret')).json()) as { secret: string };
      const event = verify(secret, receiver.received.at(-1)!);
      // The client's verifier agrees, and refuses another secret.
      const last = receiver.received.at(-1)!;
      expect(verifyWebhook(last.body, last.headers, secret)).toEqual(event);
      expect(() =>
        verifyWebhook(last.body, last.headers, `whsec_${btoa('another secret of 32 bytes here!')}`),
      ).toThrow();
      jfk = id;
      expect(event.type).toBe('job.completed');
      expect(event.data.video_id).toBe(id);
      expect(event.data.status).toBe('completed');
      expect(event.data.progress).toBe(100);
      const status = (await (await api(`/api/status/${id}`)).json()) as { result: unknown };
      expect(event.data.result).toEqual(status.result);
      expect(() =>
        verify(secret, { ...receiver.received.at(-1)!, body: receiver.received.at(-1)!.body + ' ' }),
      ).toThrow();
    },
    240_000,
  );

  it.concurrent(
    'should time out a receiver that never answers after 10 s, and still deliver to others',
    async ({ expect }) => {
      const hang = await startReceiver(0, 'hang');
      const good = await startReceiver(0, 200);
      receivers.push(hang, good);
      const junk = join(fixtures, 'binary-junk.mp4');
      const slow = await submit('/api/analyze-video', junk, { webhook_url: hang.url });
      await vi.waitUntil(() => hang.received.length >= 1, { timeout: 60_000, interval: 100 });
      const fast = await submit('/api/analyze-video', junk, { webhook_url: good.url });
      await vi.waitUntil(() => good.received.length >= 1, { timeout: 30_000, interval: 100 });
      expect(JSON.parse(good.received[0].body)).toMatchObject({
        type: 'job.failed',
        data: { video_id: fast, status: 'failed' },
      });
      await vi.waitUntil(async () => ((await deliveries(slow))[0]?.attempts.length ?? 0) >= 1, {
        timeout: 30_000,
        interval: 300,
      });
      const [attempt] = (await deliveries(slow))[0].attempts;
      expect(attempt.error).toMatch(/no answer within 10 s/);
      expect(attempt.duration_ms).toBeGreaterThanOrEqual(9_500);
      expect(attempt.duration_ms).toBeLessThan(15_000);
      await api(`/api/jobs/${slow}`, { method: 'DELETE' });
    },
    120_000,
  );

  it.concurrent(
    'should stop the pending deliveries of a deleted job',
    async ({ expect }) => {
      const failing = await startReceiver(0, 503);
      receivers.push(failing);
      const id = await submit('/api/analyze-video', join(fixtures, 'binary-junk.mp4'), {
        webhook_url: failing.url,
      });
      await vi.waitUntil(() => failing.received.length >= 2, { timeout: 60_000, interval: 100 });
      expect((await api(`/api/jobs/${id}`, { method: 'DELETE' })).status).toBe(204);
      const seen = failing.received.length;
      // Retries are 1–2 s apart: several would have come in 8 s.
      await new Promise((r) => setTimeout(r, 8_000));
      expect(failing.received.length).toBeLessThanOrEqual(seen + 1);
    },
    90_000,
  );

  it('should sign with both secrets for a day after a rotation, and announce avatars', async () => {
    const old = ((await (await api('/api/webhooks/secret')).json()) as { secret: string }).secret;
    const fresh = (
      (await (await api('/api/webhooks/secret/rotate', { method: 'POST' })).json()) as { secret: string }
    ).secret;
    const receiver = await startReceiver(0, 204);
    receivers.push(receiver);
    const avatar = await submit('/api/register-avatar', join(fixtures, 'tone-3s.mp4'), {
      webhook_url: receiver.url,
    });
    await vi.waitUntil(() => receiver.received.length >= 1, { timeout: 30_000, interval: 100 });
    const got = receiver.received[0];
    expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [old, fresh])
      expect(verify(secret, got)).toMatchObject({
        type: 'avatar.registered',
        data: { video_id: avatar, registration_status: true },
      });
    await vi.waitUntil(async () => (await deliveries(avatar))[0]?.state === 'delivered', { timeout: 10_000 });
  }, 60_000);
});

describe('the client and the CLI', () => {
  it('should iterate the job list by pages, fetch captions, and refuse another key', async () => {
    const client = new VideoApiClient({ baseUrl: stack.base, apiKey: KEY });
    const pages = [];
    for await (const page of client.listJobs({ limit: 1 })) pages.push(page);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    expect(pages.every((p) => p.data.length === 1)).toBe(true);
    const ids = pages.map((p) => p.data[0].video_id);
    expect(new Set(ids).size).toBe(ids.length);
    const completed = [];
    for await (const page of client.listJobs({ status: 'completed' })) completed.push(...page.data);
    expect(completed.map((j) => j.video_id)).toContain(jfk);

    const vtt = await client.captions(jfk, 'vtt');
    expect(vtt).toMatch(/^WEBVTT\nLanguage: en\n\n1\n00:00:\d\d\.\d{3} --> /);
    expect(vtt.toLowerCase()).toContain('country');
    expect(await client.captions(jfk, 'srt')).toMatch(/^1\n00:00:\d\d,\d{3} --> /);
    const other = new VideoApiClient({ baseUrl: stack.base, apiKey: 'e2e-webhooks-other' });
    await expect(other.captions(jfk)).rejects.toMatchObject({ code: 'not_found', status: 404 });
    await expect(other.captions(jfk)).rejects.toBeInstanceOf(VideoApiError);
  });

  it('should print verified deliveries with webhook-listen', async () => {
    const port = await freePort();
    const lines: string[] = [];
    const io = {
      stdout: { write: (s: string) => lines.push(s) },
      stderr: { write: () => true },
      env: {},
    };
    const listening = runCli(
      [
        'webhook-listen',
        '--port',
        String(port),
        '--count',
        '1',
        '--json',
        '--api-key',
        KEY,
        '--url',
        stack.base,
      ],
      io,
    );
    await new Promise((r) => setTimeout(r, 500));
    const avatar = await submit('/api/register-avatar', join(fixtures, 'tone-3s.mp4'), {
      webhook_url: `http://127.0.0.1:${port}/`,
    });
    expect(await listening).toBe(0);
    expect(JSON.parse(lines.join(''))).toMatchObject({
      type: 'avatar.registered',
      data: { video_id: avatar },
    });
  }, 60_000);
});
