import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { watchdogLimits } from '../../src/jobs/limits.js';
import { decideRetry, retryPolicy, type RetryEnv } from '../../src/pipeline/retry.js';
import { ALICE, BASE, expectError } from './helpers.js';

const listAll = async (prefix: string) => (await env.MEDIA.list({ prefix })).objects.map((o) => o.key);

describe('faults', () => {
  it('should keep no file and no job when the client goes away mid-upload', async () => {
    const before = { uploads: await listAll('uploads/'), avatars: await listAll('avatars/') };
    const boundary = 'xxBOUNDARYxx';
    const head = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
    );
    // 10 MiB of a file (more than one 8 MiB R2 part, so a multipart upload is under way), then the connection drops.
    const droppingBody = () => {
      let sent = 0;
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent === 0) controller.enqueue(head);
          if (sent >= 10 * 1024 * 1024) return controller.error(new Error('connection reset by peer'));
          controller.enqueue(new Uint8Array(1024 * 1024).fill(7));
          sent += 1024 * 1024;
        },
      });
    };
    for (const path of ['/api/analyze-video', '/api/process-video', '/api/register-avatar']) {
      const res = await SELF.fetch(`${BASE}${path}`, {
        method: 'POST',
        body: droppingBody(),
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-api-key': ALICE },
        duplex: 'half',
      } as RequestInit);
      await expectError(res, 400, 'invalid_multipart');
    }
    expect(await listAll('uploads/')).toEqual(before.uploads);
    expect(await listAll('avatars/')).toEqual(before.avatars);
  });

  it('should still answer after a broken upload', async () => {
    const res = await SELF.fetch(`${BASE}/api/analyze-video`, {
      method: 'POST',
      body: '--b\r\nContent-Disposition: form-data; name="file"; filename="x.mp4"\r\n\r\n\u0000\u0001',
      headers: { 'content-type': 'multipart/form-data; boundary=b', 'x-api-key': ALICE },
    });
    await expectError(res, 400, 'invalid_multipart');
    expect((await SELF.fetch(`${BASE}/healthz`)).status).toBe(200);
  });
});

describe('retry policy', () => {
  it('should read the backoff from [vars] and keep every delay under half the stall timeout', () => {
    expect(retryPolicy(env as unknown as RetryEnv)).toEqual({ baseDelaySec: 5, maxDelaySec: 120 });
    // The consumer's ceiling: a job waiting for its retry must not look stalled to the watchdog.
    expect(retryPolicy(env as unknown as RetryEnv, watchdogLimits(env).stallMs / 2000)).toEqual({
      baseDelaySec: 5,
      maxDelaySec: 90,
    });
    expect(retryPolicy({ JOB_RETRY_BASE_DELAY_SEC: '2', JOB_RETRY_MAX_DELAY_SEC: '8' }, 15)).toEqual({
      baseDelaySec: 2,
      maxDelaySec: 8,
    });
    expect(retryPolicy({ JOB_RETRY_BASE_DELAY_SEC: '0', JOB_RETRY_MAX_DELAY_SEC: '' })).toEqual({
      baseDelaySec: 1,
      maxDelaySec: 120,
    });
    const policy = retryPolicy({ JOB_RETRY_BASE_DELAY_SEC: '2', JOB_RETRY_MAX_DELAY_SEC: '8' });
    const delays = [1, 2, 3, 4, 5].map(
      (n) => (decideRetry(new Error('x'), n, () => 1, policy) as { delaySeconds: number }).delaySeconds,
    );
    expect(delays).toEqual([2, 4, 8, 8, 8]);
  });
});
