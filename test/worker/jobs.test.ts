import { env } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { ALICE, BOB, call, expectError, fixture, post, status, waitForJob } from './helpers.js';

describe('analysis jobs', () => {
  it('should run an uploaded video through the queue to a completed result', async () => {
    const res = await post('/api/analyze-video', {
      file: { bytes: await fixture('generated/tone-3s.mp4'), filename: 'tone.mp4', type: 'video/mp4' },
    });
    expect(res.status).toBe(200);
    const body = await res.json<{ video_id: string; status: string }>();
    expect(Object.keys(body).sort()).toEqual(['status', 'video_id']);
    expect(body.status).toBe('pending');
    expect(body.video_id).toMatch(/^vid_[A-Za-z0-9_-]{22}$/);

    const done = await waitForJob(body.video_id);
    expect(done.status).toBe('completed');
    expect(done.progress).toBe(100);
    expect(done.download_url).toBeNull();
    expect(done.error_message).toBeNull();
    const summary = (done.result as { summary: { duration_sec: number } }).summary;
    expect(summary.duration_sec).toBeGreaterThan(2.9);
    expect(summary.duration_sec).toBeLessThan(3.2);
    // Intermediates are deleted right after the job is marked completed (its lease proven first); the result stays.
    await vi.waitUntil(
      async () => (await env.MEDIA.list({ prefix: `work/${body.video_id}/` })).objects.length === 0,
      { timeout: 5_000 },
    );
    expect(await env.MEDIA.head(`results/${body.video_id}.json`)).not.toBeNull();
  });

  it('should fail a job whose bytes are not media, with a clear message', async () => {
    const res = await post('/api/analyze-video', {
      file: { bytes: await fixture('generated/binary-junk.mp4'), filename: 'junk.mp4' },
    });
    const { video_id } = await res.json<{ video_id: string }>();
    const done = await waitForJob(video_id);
    expect(done.status).toBe('failed');
    expect(done.error_message).toMatch(/not a readable audio or video file/);
    expect(done.result).toBeNull();
    expect(done.download_url).toBeNull();
    expect(done.progress).toBeLessThan(100);
  });

  it('should refuse plain text at upload with 415 and keep nothing', async () => {
    const before = (await env.MEDIA.list({ prefix: 'uploads/' })).objects.length;
    const res = await post('/api/analyze-video', {
      file: { bytes: await fixture('generated/not-media.mp4'), filename: 'fake.mp4' },
    });
    await expectError(res, 415, 'unsupported_media_type', 'file');
    expect((await env.MEDIA.list({ prefix: 'uploads/' })).objects.length).toBe(before);
  });

  it('should validate the form', async () => {
    await expectError(
      await post('/api/analyze-video', { visual_analytics: 'true' }),
      400,
      'missing_file',
      'file',
    );
    await expectError(
      await post('/api/analyze-video', { file: { bytes: new Uint8Array(0) } }),
      400,
      'empty_file',
      'file',
    );
    const bytes = await fixture('generated/tone-3s.mp4');
    await expectError(
      await post('/api/analyze-video', { file: { bytes }, visual_analytics: 'yes' }),
      400,
      'invalid_field',
      'visual_analytics',
    );
    await expectError(
      await post('/api/analyze-video', { file: { bytes }, visual_analytics: '1' }),
      400,
      'invalid_field',
      'visual_analytics',
    );
    await expectError(
      await post('/api/analyze-video', { file: { bytes }, colour: 'red' }),
      400,
      'invalid_field',
      'colour',
    );
    await expectError(await post('/api/analyze-video', { file: 'just text' }), 400, 'invalid_field', 'file');
    const json = await call('/api/analyze-video', {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    await expectError(json, 400, 'invalid_multipart');
    const truncated = await call('/api/analyze-video', {
      method: 'POST',
      body: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.mp4"\r\n\r\nabc',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
    });
    await expectError(truncated, 400, 'invalid_multipart');
  });

  it('should answer 413 beyond the configured maximum size', async () => {
    const big = new Uint8Array(13 * 1024 * 1024).fill(7);
    await expectError(await post('/api/analyze-video', { file: { bytes: big } }), 413, 'payload_too_large');
    expect(
      (await env.MEDIA.list({ prefix: 'uploads/' })).objects.every((o) => o.size < 13 * 1024 * 1024),
    ).toBe(true);
  });
});

describe('status', () => {
  it("should report not_found for unknown ids, malformed ids and other keys' jobs", async () => {
    const empty = { status: 'not_found', progress: 0, download_url: null, result: null, error_message: null };
    expect(await status('vid_AAAAAAAAAAAAAAAAAAAAAA')).toEqual(empty);
    expect(await status('not-an-id')).toEqual(empty);
    expect(await status('vid_%2E%2E%2Fetc')).toEqual(empty);
    const res = await post('/api/analyze-video', { file: { bytes: await fixture('generated/tone-3s.mp4') } });
    const { video_id } = await res.json<{ video_id: string }>();
    expect(await status(video_id, BOB)).toEqual(empty);
    expect((await status(video_id, ALICE)).status).not.toBe('not_found');
    await waitForJob(video_id);
  });

  it('should answer on both path forms with exactly the spec fields', async () => {
    for (const path of ['/api/status/vid_AAAAAAAAAAAAAAAAAAAAAA', '/status/vid_AAAAAAAAAAAAAAAAAAAAAA']) {
      const res = await call(path);
      expect(res.headers.get('cache-control')).toContain('no-store');
      expect(Object.keys(await res.json()).sort()).toEqual([
        'download_url',
        'error_message',
        'progress',
        'result',
        'status',
      ]);
    }
  });
});

describe('status long-poll (wait)', () => {
  /** A pending job of Alice's that no consumer runs: its record moves only when the test moves it. */
  async function idleJob(id: string) {
    const hash = [...new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(ALICE)))]
      .map((b) => b.toString(16).padStart(2, '0'))
      .join('');
    const stub = env.JOB.get(env.JOB.idFromName(id));
    await stub.create({
      video_id: id,
      kind: 'analysis',
      tenant: `dev_${hash.slice(0, 16)}`,
      audio: null,
      options: { visual_analytics: false },
      source: { key: `uploads/${id}/source`, size: 1, filename: null, content_type: null },
    });
    return stub;
  }
  const timed = async <T>(p: Promise<T>): Promise<[T, number]> => {
    const t0 = Date.now();
    const value = await p;
    return [value, Date.now() - t0];
  };
  /** Runs `fn` after `ms` (while a long-poll waits), for its effect. */
  const later = async (ms: number, fn: () => Promise<unknown>): Promise<void> => {
    await new Promise((r) => setTimeout(r, ms));
    await fn();
  };

  it('should hold a running job until its status moves, or its progress after a second, or the wait ends', async () => {
    const id = 'vid_longpollLongpollLongp0';
    const stub = await idleJob(id);
    expect((await status(id)).status).toBe('pending');

    const [unmoved, unmovedMs] = await timed(status(`${id}?wait=1`));
    expect(unmoved.status).toBe('pending');
    expect(unmovedMs).toBeGreaterThanOrEqual(950);

    const [[claimed], claimedMs] = await timed(
      Promise.all([status(`${id}?wait=30`), later(300, () => stub.claim())]),
    );
    expect(claimed.status).toBe('processing');
    expect(claimedMs).toBeLessThan(3_000);

    const { lease } = (await stub.get())!;
    const [[advanced], advancedMs] = await timed(
      Promise.all([status(`${id}?wait=30`), later(200, () => stub.progress(lease, 40, 'speech'))]),
    );
    expect(advanced.progress).toBe(40);
    expect(advancedMs).toBeGreaterThanOrEqual(950);
    expect(advancedMs).toBeLessThan(4_000);

    // Another key never waits (a held answer would tell it the id exists); an ended job answers at once.
    const [other, otherMs] = await timed(status(`${id}?wait=30`, BOB));
    expect(other.status).toBe('not_found');
    expect(otherMs).toBeLessThan(1_000);
    await stub.fail('stopped by the test', lease);
    const [ended, endedMs] = await timed(status(`${id}?wait=30`));
    expect(ended).toMatchObject({ status: 'failed', error_message: 'stopped by the test' });
    expect(endedMs).toBeLessThan(1_000);
  });

  it('should answer a held request at once when the job is deleted', async () => {
    const id = 'vid_longpollDeletedLongpo0';
    await idleJob(id);
    expect((await status(id)).status).toBe('pending');
    const [[gone], ms] = await timed(
      Promise.all([status(`${id}?wait=30`), later(300, () => call(`/api/jobs/${id}`, { method: 'DELETE' }))]),
    );
    // The deletion fails the running job first, then removes it: the held answer shows either.
    if (gone.status === 'failed') expect(gone.error_message).toBe('the job was deleted');
    else expect(gone.status).toBe('not_found');
    expect(ms).toBeLessThan(3_000);
  });

  it('should refuse a wait that is not 0–60 whole seconds', async () => {
    for (const wait of ['61', 'soon', '2.5', '-1'])
      await expectError(
        await call(`/api/status/vid_AAAAAAAAAAAAAAAAAAAAAA?wait=${wait}`),
        400,
        'invalid_request',
        'wait',
      );
  });
});
