import {
  createExecutionContext,
  createMessageBatch,
  env,
  getQueueResult,
  runDurableObjectAlarm,
  runInDurableObject,
} from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import worker from '../../src/index.js';
import type { JobObject } from '../../src/jobs/job-object.js';
import type { JobRecord, NewJob } from '../../src/jobs/state.js';
import { MEDIA_HEADERS, MEDIA_ROUTES, mediaPath } from '../../src/contract/media-protocol.js';
import { fixture, post, waitForJob } from './helpers.js';

const newJob = (id: string): NewJob => ({
  video_id: id,
  kind: 'analysis',
  tenant: 'dev_x',
  audio: null,
  options: { visual_analytics: false },
  source: { key: `uploads/${id}/source`, size: 1, filename: null, content_type: null },
});
const stubOf = (id: string) => env.JOB.get(env.JOB.idFromName(id));

async function deliver(queue: string, id: string, testEnv = env, attempts = 1) {
  const batch = createMessageBatch(queue, [
    { id: `m-${id}-${attempts}`, timestamp: new Date(), attempts, body: { video_id: id } },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch as never, testEnv as never);
  return getQueueResult(batch, ctx);
}

describe('queue consumer', () => {
  it('should not run a completed job again when its message is redelivered', async () => {
    const res = await post('/api/analyze-video', { file: { bytes: await fixture('generated/tone-3s.mp4') } });
    const { video_id } = await res.json<{ video_id: string }>();
    const done = await waitForJob(video_id);
    const before = (await stubOf(video_id).get()) as JobRecord;
    const result = await deliver('video-api-jobs', video_id);
    expect(result.explicitAcks).toEqual([`m-${video_id}-1`]);
    const after = (await stubOf(video_id).get()) as JobRecord;
    expect(after).toEqual(before);
    expect(done.status).toBe('completed');
  });

  it('should retry with backoff when the media service is unreachable, noting the error', async () => {
    const id = 'vid_retryretryretryretry0';
    await env.MEDIA.put(`uploads/${id}/source`, await fixture('generated/tone-3s.mp4'));
    await stubOf(id).create(newJob(id));
    const result = await deliver('video-api-jobs', id, { ...env, CONTAINER_URL: 'http://127.0.0.1:1' });
    expect(result.retryMessages).toMatchObject([{ msgId: `m-${id}-1` }]);
    const job = (await stubOf(id).get()) as JobRecord;
    expect(job.status).toBe('processing');
    expect(job.last_error).toMatch(/media service could not be reached/);
  });

  it('should fail the job with the last error when the message reaches the dead-letter queue', async () => {
    const id = 'vid_deadletterdeadletter0';
    await stubOf(id).create(newJob(id));
    await stubOf(id).noteError('the media service could not be reached');
    await deliver('video-api-jobs-dlq', id);
    const job = (await stubOf(id).get()) as JobRecord;
    expect(job).toMatchObject({
      status: 'failed',
      error_message: 'processing failed after repeated attempts: the media service could not be reached',
    });
  });

  it('should answer a second concurrent delivery with busy instead of running twice', async () => {
    const id = 'vid_busybusybusybusybusy0';
    const stub = stubOf(id);
    await stub.create(newJob(id));
    expect((await stub.claim()).ok).toBe(true);
    expect(await stub.claim()).toEqual({ ok: false, reason: 'busy' });
  });
});

describe('watchdog alarm', () => {
  it('should re-dispatch a silent job, then fail it with a message', async () => {
    const id = 'vid_watchdogwatchdogwatc';
    const stub = stubOf(id);
    await stub.create(newJob(id));
    const claimed = await stub.claim();
    expect(claimed.ok).toBe(true);
    const silence = async () =>
      runInDurableObject(stub, async (_obj: JobObject, state) => {
        const rec = (await state.storage.get<JobRecord>('job'))!;
        const old = { ...rec, heartbeat_at: Date.now() - 3_600_000, updated_at: Date.now() - 3_600_000 };
        await state.storage.put('job', old);
        (_obj as unknown as { record: JobRecord }).record = old;
      });
    await silence();
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    let job = (await stub.get()) as JobRecord;
    expect(job).toMatchObject({ status: 'processing', redispatches: 1 });
    // The old consumer's lease is stale now: its reports are refused.
    expect(await stub.heartbeat(1)).toBe(false);

    for (let i = 0; i < 2; i++) {
      await silence();
      await runDurableObjectAlarm(stub);
    }
    // The re-dispatched message may reach the real consumer first: it finds no source and fails the job.
    await vi.waitUntil(async () => ((await stub.get()) as JobRecord).status === 'failed', {
      timeout: 10_000,
    });
    job = (await stub.get()) as JobRecord;
    expect(job).toMatchObject({
      error_message: expect.stringMatching(/stopped responding|no longer stored/),
    });
  });

  it('should stop the work in the media container of a job it fails', async () => {
    const id = 'vid_watchdogendswatchdogen';
    const stub = stubOf(id);
    await stub.create(newJob(id));
    expect((await stub.claim()).ok).toBe(true);
    // The consumer sent the source to the real media service, then went silent past the run limit.
    const scope = { [MEDIA_HEADERS.jobId]: id, [MEDIA_HEADERS.tenantId]: 'dev_x' };
    const put = await fetch(`${env.CONTAINER_URL}${mediaPath.jobSource(id)}`, {
      method: 'PUT',
      headers: scope,
      body: await fixture('generated/tone-3s.mp4'),
    });
    expect(put.status, await put.text()).toBeLessThan(300);
    const keptThere = async () => {
      const res = await fetch(`${env.CONTAINER_URL}${MEDIA_ROUTES.probe}`, {
        method: 'POST',
        headers: { ...scope, [MEDIA_HEADERS.storedSource]: '1' },
      });
      await res.body?.cancel();
      return res.status === 200;
    };
    expect(await keptThere()).toBe(true);
    await runInDurableObject(stub, async (obj: JobObject, state) => {
      const rec = (await state.storage.get<JobRecord>('job'))! as JobRecord & { started_at: number };
      const old = { ...rec, started_at: Date.now() - 24 * 3_600_000 };
      await state.storage.put('job', old);
      (obj as unknown as { record: JobRecord }).record = old;
    });
    await runDurableObjectAlarm(stub);
    expect(await stub.get()).toMatchObject({
      status: 'failed',
      error_message: expect.stringMatching(/maximum run time/),
    });
    expect(await keptThere()).toBe(false);
  });
});
