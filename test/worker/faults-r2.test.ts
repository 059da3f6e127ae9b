/**
 * R2 faults end the job cleanly, on workerd's real R2 (nothing of ours is mocked): an uploaded
 * object deleted, truncated or replaced between upload and processing fails the job at once with
 * a message that says so; an R2 write that fails is retried with backoff, and the dead-letter
 * queue fails the job with that error. The media service is the real one (global-setup.ts).
 */
import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index.js';
import type { JobRecord, NewJob } from '../../src/jobs/state.js';
import { fixture, call, post, waitForJob } from './helpers.js';

const stubOf = (id: string) => env.JOB.get(env.JOB.idFromName(id));
const keysUnder = async (prefix: string) => (await env.MEDIA.list({ prefix })).objects.map((o) => o.key);

/** A completed resumable upload of `bytes`: its file_id and the R2 key that holds it. */
async function resumableUpload(bytes: Uint8Array): Promise<{ fileId: string; key: string }> {
  const { upload_id } = await (await call('/api/uploads', { method: 'POST' })).json<{ upload_id: string }>();
  expect((await call(`/api/uploads/${upload_id}/parts/1`, { method: 'PUT', body: bytes })).status).toBe(200);
  expect((await call(`/api/uploads/${upload_id}/complete`, { method: 'POST' })).status).toBe(200);
  const [key] = (await keysUnder('resumable/')).filter((k) => k.includes(`/${upload_id}/`));
  expect(key).toBeTruthy();
  return { fileId: upload_id, key };
}

async function analyzeFile(fileId: string): Promise<string> {
  const res = await post('/api/analyze-video', { file_id: fileId });
  expect(res.status).toBe(200);
  return (await res.json<{ video_id: string }>()).video_id;
}

async function deliver(queue: string, id: string, attempts: number) {
  const batch = createMessageBatch(queue, [
    { id: `m-${attempts}`, timestamp: new Date(), attempts, body: { video_id: id } },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch as never, env as never);
  return getQueueResult(batch, ctx);
}

describe('R2 faults', () => {
  it('should fail at once, without retries, when the uploaded object was deleted before the job ran', async () => {
    const { fileId, key } = await resumableUpload(await fixture('generated/tone-3s.mp4'));
    await env.MEDIA.delete(key);
    const id = await analyzeFile(fileId);
    const done = await waitForJob(id, undefined, 30_000);
    expect(done.status).toBe('failed');
    expect(done.error_message).toBe(
      'the uploaded video is no longer stored (it was deleted before the job ran)',
    );
    const job = (await stubOf(id).get()) as JobRecord;
    expect(job.last_error).toBeNull(); // unrecoverable: never retried
    expect(await keysUnder(`work/${id}/`)).toEqual([]);
  });

  it('should fail with the sizes when the uploaded object was replaced by a truncated copy', async () => {
    const bytes = await fixture('generated/tone-3s.mp4');
    const { fileId, key } = await resumableUpload(bytes);
    await env.MEDIA.put(key, bytes.subarray(0, 4096));
    const done = await waitForJob(await analyzeFile(fileId), undefined, 30_000);
    expect(done.status).toBe('failed');
    expect(done.error_message).toBe(
      `the uploaded video is incomplete in storage (4096 of ${bytes.length} bytes uploaded are stored)`,
    );
  });

  it("should fail with the media service's reason when the object was replaced by bytes that are not media", async () => {
    const bytes = await fixture('generated/tone-3s.mp4');
    const { fileId, key } = await resumableUpload(bytes);
    // Same size, so only the media service can tell; binary, as an upload that passed the text sniffer.
    let seed = 7;
    const noise = bytes.map(() => (seed = (seed * 1_103_515_245 + 12_345) >>> 0) >>> 24);
    noise[0] = 0;
    await env.MEDIA.put(key, noise);
    const done = await waitForJob(await analyzeFile(fileId), undefined, 60_000);
    expect(done.status).toBe('failed');
    expect(done.error_message).toMatch(/^reading the media failed: .{10,}/);
  });

  it('should retry a failed output write, re-claiming the job at once, and fail it from the dead-letter queue', async () => {
    // A real R2 refusal: keys are at most 1024 bytes. With this id the job's work keys
    // (`work/{id}/probe.json`, 1024 bytes) are accepted and its output key
    // (`outputs/{id}/video.mp4`, 1026 bytes) is not, so the last write of the job fails.
    const id = `vid_${'x'.repeat(1008 - 4)}`;
    const source = `uploads/${id}/source`;
    const bytes = await fixture('generated/tone-3s.mp4');
    await env.MEDIA.put(source, bytes);
    const init: NewJob = {
      video_id: id,
      kind: 'processing',
      tenant: 'dev_r2faults',
      audio: null,
      source: { key: source, size: bytes.length, filename: 'tone-3s.mp4', content_type: 'video/mp4' },
      options: {
        blur_background: false,
        eye_contact_correction: false,
        lip_sync_correction: false,
        lip_sync_correction_model: 'lipsync2',
        voice_generator: '0',
        description: null,
        voice_id: null,
        credential_voice_generator: null,
        speech: 'original',
      },
    };
    const stub = stubOf(id);
    await stub.create(init);

    const first = await deliver('video-api-jobs', id, 1);
    expect(first.explicitAcks).toEqual([]);
    expect(first.retryMessages).toEqual([{ msgId: 'm-1' }]);
    let job = (await stub.get()) as JobRecord;
    expect(job).toMatchObject({ status: 'processing', heartbeat_at: null }); // given back, so the retry is not answered `busy`
    expect(job.last_error).toMatch(/^the render step failed: .*(10020|not valid)/);
    expect(await keysUnder(`work/${id}/`)).toEqual([`work/${id}/probe.json`]); // the probe is kept for the retry

    // The retried delivery runs the job again (it used to be acknowledged as busy and left to the watchdog).
    const second = await deliver('video-api-jobs', id, 2);
    expect(second.retryMessages).toEqual([{ msgId: 'm-2' }]);
    job = (await stub.get()) as JobRecord;
    expect(job.lease).toBe(2);

    // Out of retries: the dead-letter queue fails the job with the last error and removes its work.
    await deliver('video-api-jobs-dlq', id, 1);
    job = (await stub.get()) as JobRecord;
    expect(job).toMatchObject({
      status: 'failed',
      error_message: `processing failed after repeated attempts: ${job.last_error}`,
    });
    expect(await keysUnder(`work/${id}/`)).toEqual([]);
    expect(await keysUnder('outputs/')).toEqual([]);
  });
});
