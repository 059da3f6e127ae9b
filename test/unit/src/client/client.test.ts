/**
 * The typed client against a fake fetch: request shape, error mapping, polling with backoff,
 * upload progress.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { formatAnalysis } from '../../../../src/client/summary.js';
import { runCli } from '../../../../src/client/cli.js';
import { sampleDelivery, sampleResult } from '../../../e2e/support/sample-result.js';
import { testTempDir } from '../../../support/temp-dir.js';
import {
  nextPollDelayMs,
  VideoApiClient,
  VideoApiError,
  VideoJobError,
  VideoWaitTimeoutError,
  type JobStatus,
} from '../../../../src/client/index.js';

interface Seen {
  url: string;
  method: string;
  headers: Headers;
  body: string;
}

function fakeFetch(answer: (req: Seen, n: number) => Response | Promise<Response>) {
  const seen: Seen[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const body = init.body ? await new Response(init.body as BodyInit).text() : '';
    const req = {
      url: String(input),
      method: init.method ?? 'GET',
      headers: new Headers(init.headers),
      body,
    };
    seen.push(req);
    return answer(req, seen.length);
  });
  return { fetch: fn as unknown as typeof fetch, seen };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const status = (s: Partial<JobStatus>): JobStatus => ({
  status: 'processing',
  progress: 0,
  download_url: null,
  result: null,
  error_message: null,
  ...s,
});

describe('VideoApiClient requests', () => {
  it('should send the key, a multipart body with fields and the file, and return the job', async () => {
    const { fetch, seen } = fakeFetch(() => json({ video_id: 'vid_x', status: 'pending' }));
    const client = new VideoApiClient({ baseUrl: 'http://api.test/', apiKey: 'k1', fetch });
    const created = await client.analyzeVideo(new Uint8Array([1, 2, 3]), {
      visualAnalytics: true,
      filename: 'a.webm',
    });
    expect(created).toEqual({ video_id: 'vid_x', status: 'pending' });
    expect(seen[0].url).toBe('http://api.test/api/analyze-video');
    expect(seen[0].headers.get('x-api-key')).toBe('k1');
    expect(seen[0].headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen[0].body).toContain('name="visual_analytics"\r\n\r\ntrue\r\n');
    expect(seen[0].body).toContain('name="file"; filename="a.webm"\r\nContent-Type: video/webm');
  });

  it('should parse its own multipart body the way a server does', async () => {
    const { fetch, seen } = fakeFetch(() => json({ video_id: 'vid_x', status: 'pending' }));
    const client = new VideoApiClient({ apiKey: 'k', fetch });
    await client.processVideo({
      file: new Blob(['abc']),
      description: 'Hi "there"',
      blurBackground: false,
      voiceGenerator: 1,
      voiceId: 'v',
      lipSyncCorrection: true,
      eyeContactCorrection: false,
    });
    const form = await new Request('http://x', {
      method: 'POST',
      body: seen[0].body,
      headers: { 'content-type': seen[0].headers.get('content-type')! },
    }).formData();
    expect(Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === 'string'))).toEqual({
      description: 'Hi "there"',
      blur_background: 'false',
      voice_generator: '1',
      voice_id: 'v',
      lip_sync_correction: 'true',
      eye_contact_correction: 'false',
    });
    expect(await (form.get('file') as Blob).text()).toBe('abc');
  });

  it('should not upload a file when an avatar id is given', async () => {
    const { fetch, seen } = fakeFetch(() => json({ video_id: 'vid_x', status: 'pending' }));
    await new VideoApiClient({ apiKey: 'k', fetch }).processVideo({
      avatarId: 'avt_1',
      file: new Uint8Array(10),
    });
    expect(seen[0].body).toContain('name="video_id"\r\n\r\navt_1');
    expect(seen[0].body).not.toContain('name="file"');
  });

  it('should read a file from a path and report upload progress up to the total', async () => {
    const dir = testTempDir('client-');
    const path = join(dir, 'clip.mp4');
    writeFileSync(path, Buffer.alloc(300_000, 7));
    const { fetch, seen } = fakeFetch(() => json({ video_id: 'vid_x', status: 'pending' }));
    const progress: Array<{ loaded: number; total: number }> = [];
    await new VideoApiClient({ apiKey: 'k', fetch }).analyzeVideo(path, {
      onUploadProgress: (p) => progress.push(p),
    });
    expect(seen[0].body).toContain('filename="clip.mp4"\r\nContent-Type: video/mp4');
    expect(seen[0].headers.get('content-length')).toBe(String(seen[0].body.length));
    expect(progress.length).toBeGreaterThan(2);
    expect(progress[0].loaded).toBe(0);
    expect(progress.at(-1)).toEqual({ loaded: seen[0].body.length, total: seen[0].body.length });
    expect(progress.every((p, i) => i === 0 || p.loaded >= progress[i - 1].loaded)).toBe(true);
  });
});

describe('VideoApiClient extras', () => {
  it('should send an Idempotency-Key when given, and delete jobs and avatars (204)', async () => {
    const { fetch, seen } = fakeFetch((req) =>
      req.method === 'DELETE'
        ? new Response(null, { status: 204 })
        : json({ video_id: 'vid_x', status: 'pending' }),
    );
    const client = new VideoApiClient({ apiKey: 'k', fetch });
    await client.analyzeVideo(new Uint8Array(1), { idempotencyKey: 'retry-1' });
    expect(seen[0].headers.get('idempotency-key')).toBe('retry-1');
    await expect(client.deleteJob('vid_x')).resolves.toBeUndefined();
    await client.deleteAvatar('avt_y');
    expect(seen.slice(1).map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      'DELETE /api/jobs/vid_x',
      'DELETE /api/avatars/avt_y',
    ]);
  });
});

describe('VideoApiClient errors', () => {
  it('should map the error body to VideoApiError with code, status, requestId and field', async () => {
    const { fetch } = fakeFetch(() =>
      json(
        {
          error: { code: 'invalid_field', message: '"audio" is allowed only…', field: 'audio' },
          request_id: 'req_1',
        },
        400,
      ),
    );
    const err = await new VideoApiClient({ apiKey: 'k', fetch })
      .processVideo({ file: new Uint8Array(1), audio: new Uint8Array(1) })
      .catch((e) => e);
    expect(err).toBeInstanceOf(VideoApiError);
    expect(err).toMatchObject({
      code: 'invalid_field',
      status: 400,
      requestId: 'req_1',
      field: 'audio',
      retryable: false,
    });
  });

  it('should fall back to the X-Request-Id header and an http_ code for non-JSON errors', async () => {
    const { fetch } = fakeFetch(
      () => new Response('Bad Gateway', { status: 502, headers: { 'x-request-id': 'req_h' } }),
    );
    const err = await new VideoApiClient({ apiKey: 'k', fetch }).getStatus('vid_x').catch((e) => e);
    expect(err).toMatchObject({
      code: 'http_502',
      status: 502,
      requestId: 'req_h',
      field: null,
      retryable: true,
    });
  });

  it('should count a 408 body_timeout as worth retrying (nothing of the request was stored)', async () => {
    const { fetch } = fakeFetch(() =>
      Response.json(
        {
          error: { code: 'body_timeout', message: 'the request body stalled', reason: 'idle' },
          request_id: 'req_t',
        },
        { status: 408 },
      ),
    );
    const err = await new VideoApiClient({ apiKey: 'k', fetch }).getStatus('vid_x').catch((e) => e);
    expect(err).toMatchObject({ code: 'body_timeout', status: 408, retryable: true });
  });

  it('should turn a network failure into network_error with status 0', async () => {
    const fetch = (async () => {
      throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
    }) as unknown as typeof globalThis.fetch;
    const err = await new VideoApiClient({ apiKey: 'k', fetch }).getStatus('vid_x').catch((e) => e);
    expect(err).toMatchObject({ code: 'network_error', status: 0 });
    expect(err.message).toContain('ECONNREFUSED');
  });
});

describe('waitForCompletion', () => {
  it('should poll until completed, reporting each status', async () => {
    const answers = [
      status({ status: 'pending' }),
      status({ progress: 40 }),
      status({ status: 'completed', progress: 100, result: { transcript: 'hi' } as any }),
    ];
    const { fetch } = fakeFetch((_, n) => json(answers[n - 1]));
    const seen: number[] = [];
    const done = await new VideoApiClient({ apiKey: 'k', fetch }).waitForCompletion('vid_x', {
      intervalMs: 1,
      onProgress: (s) => seen.push(s.progress),
    });
    expect(done.status).toBe('completed');
    expect(seen).toEqual([0, 40, 100]);
  });

  it('should long-poll, asking again at once when the server held the answer until the job moved', async () => {
    const answers = [
      status({ status: 'pending' }),
      status({ progress: 40 }),
      status({ progress: 60 }),
      status({ status: 'completed', progress: 100 }),
    ];
    // A long-polling server holds a progress change ≥ 1 s; this one holds 320 ms against a 300 ms interval.
    const { fetch, seen } = fakeFetch(async (_, n) => {
      if (n > 1) await new Promise((r) => setTimeout(r, 320));
      return json(answers[n - 1]);
    });
    const started = Date.now();
    const done = await new VideoApiClient({ apiKey: 'k', fetch }).waitForCompletion('vid_x', {
      intervalMs: 300,
      jitter: 0,
    });
    expect(done.status).toBe('completed');
    expect(seen.map((r) => new URL(r.url).search)).toEqual(Array(4).fill('?wait=25'));
    // No pause of its own after the held progress answer: the server's holds (3 × 320 ms) are the whole wait.
    expect(Date.now() - started).toBeLessThan(1150);
  });

  it('should pause between early answers without a new status (a server that does not hold them)', async () => {
    const answers = [
      status({ progress: 10 }),
      status({ progress: 20 }),
      status({ progress: 30 }),
      status({ status: 'completed' }),
    ];
    const at: number[] = [];
    const { fetch } = fakeFetch((_, n) => {
      at.push(Date.now());
      return json(answers[n - 1]);
    });
    await new VideoApiClient({ apiKey: 'k', fetch }).waitForCompletion('vid_x', {
      intervalMs: 100,
      jitter: 0,
    });
    // First answer: a new status (none before), asked again at once; then progress only: one interval each.
    const gaps = at.slice(1).map((t, i) => t - at[i]);
    expect(gaps[0]).toBeLessThan(50);
    expect(gaps[1]).toBeGreaterThanOrEqual(90);
    expect(gaps[2]).toBeGreaterThanOrEqual(90);
  });

  it('should throw VideoJobError with the error_message when the job fails, and on not_found', async () => {
    const failed = fakeFetch(() => json(status({ status: 'failed', error_message: 'not a video' })));
    await expect(
      new VideoApiClient({ apiKey: 'k', fetch: failed.fetch }).waitForCompletion('vid_x', { intervalMs: 1 }),
    ).rejects.toMatchObject({ name: 'VideoJobError', status: 'failed', message: 'not a video' });
    const missing = fakeFetch(() => json(status({ status: 'not_found' })));
    const err = await new VideoApiClient({ apiKey: 'k', fetch: missing.fetch })
      .waitForCompletion('vid_y', { intervalMs: 1 })
      .catch((e) => e);
    expect(err).toBeInstanceOf(VideoJobError);
    expect(err.status).toBe('not_found');
  });

  it('should retry transient errors and give up on permanent ones', async () => {
    const flaky = fakeFetch((_, n) =>
      n < 3
        ? json({ error: { code: 'internal_error', message: 'x' }, request_id: 'r' }, 500)
        : json(status({ status: 'completed', progress: 100 })),
    );
    expect(
      (
        await new VideoApiClient({ apiKey: 'k', fetch: flaky.fetch }).waitForCompletion('vid_x', {
          intervalMs: 1,
        })
      ).status,
    ).toBe('completed');
    const denied = fakeFetch(() =>
      json({ error: { code: 'unauthorized', message: 'no' }, request_id: 'r' }, 401),
    );
    await expect(
      new VideoApiClient({ apiKey: 'k', fetch: denied.fetch }).waitForCompletion('vid_x', { intervalMs: 1 }),
    ).rejects.toMatchObject({ code: 'unauthorized' });
    expect(denied.fetch).toHaveBeenCalledTimes(1);
  });

  it('should wait as long as Retry-After asks when rate limited', async () => {
    const { fetch } = fakeFetch((_, n) =>
      n === 1
        ? json({ error: { code: 'rate_limited', message: 'slow down' }, request_id: 'r' }, 429, {
            'retry-after': '1',
          })
        : json(status({ status: 'completed', progress: 100 })),
    );
    const started = Date.now();
    await new VideoApiClient({ apiKey: 'k', fetch }).waitForCompletion('vid_x', { intervalMs: 1 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('should back off while progress stands still and time out', async () => {
    const { fetch } = fakeFetch(() => json(status({ progress: 10 })));
    const started = Date.now();
    const err = await new VideoApiClient({ apiKey: 'k', fetch })
      .waitForCompletion('vid_x', { intervalMs: 5, factor: 2, jitter: 0, timeoutMs: 200 })
      .catch((e) => e);
    expect(err).toBeInstanceOf(VideoWaitTimeoutError);
    expect(err).toMatchObject({ lastStatus: 'processing', lastProgress: 10 });
    // 5, 10, 20, 40, 80 ms … : only a handful of polls fit in 200 ms.
    expect((fetch as any).mock.calls.length).toBeLessThanOrEqual(7);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('should stop when the signal aborts', async () => {
    const { fetch } = fakeFetch(() => json(status({ progress: 10 })));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop')), 30);
    await expect(
      new VideoApiClient({ apiKey: 'k', fetch }).waitForCompletion('vid_x', {
        intervalMs: 10,
        signal: controller.signal,
      }),
    ).rejects.toThrow('stop');
  });
});

describe('nextPollDelayMs', () => {
  it('should grow geometrically up to the ceiling, with bounded jitter', () => {
    expect([0, 1, 2, 3, 10].map((n) => nextPollDelayMs(n, { jitter: 0 }))).toEqual([
      1000, 1500, 2250, 3375, 10_000,
    ]);
    expect(nextPollDelayMs(0, {}, () => 0)).toBe(900);
    expect(nextPollDelayMs(0, {}, () => 1)).toBe(1100);
  });
});

describe('download', () => {
  it('should resolve the id to its signed link and fetch it without the API key', async () => {
    const { fetch, seen } = fakeFetch((req) =>
      req.url.includes('/api/status/')
        ? json(
            status({
              status: 'completed',
              progress: 100,
              download_url: 'http://files.test/files/o/v.mp4?expires=1&token=t',
            }),
          )
        : new Response('VIDEO', { headers: { 'content-length': '5' } }),
    );
    const dir = testTempDir('client-dl-');
    const out = await new VideoApiClient({ apiKey: 'secret', fetch }).download('vid_x', join(dir, 'out.mp4'));
    expect(out).toMatchObject({ bytes: 5, path: join(dir, 'out.mp4') });
    expect(seen[1].url).toBe('http://files.test/files/o/v.mp4?expires=1&token=t');
    expect(seen[1].headers.get('x-api-key')).toBeNull();
  });

  it('should refuse an analysis job (no download) and map a 403 link error', async () => {
    const analysis = fakeFetch(() => json(status({ status: 'completed', progress: 100, result: {} as any })));
    await expect(
      new VideoApiClient({ apiKey: 'k', fetch: analysis.fetch }).download('vid_x'),
    ).rejects.toThrow(/no download/);
    const expired = fakeFetch(() =>
      json({ error: { code: 'link_expired', message: 'expired' }, request_id: 'r' }, 403),
    );
    await expect(
      new VideoApiClient({ apiKey: 'k', fetch: expired.fetch }).download(
        'http://files.test/files/x?expires=1&token=t',
      ),
    ).rejects.toMatchObject({ code: 'link_expired', status: 403 });
  });
});

describe('CLI pieces', () => {
  it('should summarise an analysis readably', () => {
    const text = formatAnalysis(sampleResult());
    expect(text).toMatch(/duration\s+20\.0 s \(0:20\)/);
    expect(text).toMatch(/pace\s+\d+ WPM\s+\((slower than|within|faster than) 130–160\)/);
    // Another language's target is English's scaled to its words where its word rate is known
    // (contract/speech-rate), else English's, named as such.
    expect(formatAnalysis({ ...sampleResult(), language: 'de' })).toMatch(
      /pace\s+\d+ WPM\s+\((slower than|within|faster than) 102–126, English's 130–160 scaled to German words\)/,
    );
    expect(formatAnalysis({ ...sampleResult(), language: 'sv' })).toMatch(
      /pace\s+\d+ WPM\s+\((slower than|within|faster than) English's 130–160\)/,
    );
    expect(text).toMatch(/fillers\s+4 \(12\.0\/min\)/);
    expect(text).toMatch(/pauses\s+2, 1 long/);
    expect(text).toMatch(/gestures\s+open_hand 6, pinch_or_point 3/);
    expect(text).toMatch(/gaze\s+85% at camera/);
    expect(formatAnalysis({ summary: { duration_sec: 3 } } as any)).toContain('3.0 s');
    expect(text).not.toContain('Delivery');
    // Chinese counts the recogniser's pieces (the warning says so): no words-per-minute band.
    const zh = sampleResult();
    zh.warnings = ['summary.words_per_minute: zh is written without spaces: …'];
    expect(formatAnalysis(zh)).toMatch(/pace\s+\d+ per min\s+\(pieces, not words \(see warnings\)\)/);
    expect(formatAnalysis({ ...zh, delivery: sampleDelivery(zh) })).toMatch(
      /pace over time\s+\d+–\d+ per min\s+\(pieces, not words\)/,
    );
  });

  it('should print the delivery numbers when the result has them', () => {
    const result = sampleResult();
    const text = formatAnalysis({ ...result, delivery: sampleDelivery(result) });
    expect(text).toMatch(/pitch\s+median 182 Hz, variation 1\.6 st\s+\(range 5\.1 st; monotone \(< 2 st\)\)/);
    expect(text).toMatch(/loudness\s+variation 4\.3 dB\s+\(quiet 0:12–0:14 \(-11\.8 dB\)\)/);
    expect(text).toMatch(/repetitions\s+1\s+\("we need to" ×2 at 0:05\)/);
    expect(text).toMatch(/pace over time\s+150–176 WPM\s+\(fast 0:04–0:19\)/);
    // 34 of the sample's 40 frames look at the camera; the 6 others run 7.0–10.0 s.
    expect(text).toMatch(/eye contact\s+85%\s+\(longest look-away 3\.0 s at 0:07\)/);
    // 9 of 40 frames show an open hand or a point (22.5 %).
    expect(text).toMatch(/hands\s+seen 100%\s+\(gesturing 23%\)/);
  });

  it('should exit 2 on usage errors and 3 on API errors, printing the request id', async () => {
    const out: string[] = [];
    const io = (fetch?: typeof globalThis.fetch) => ({
      stdout: { write: (s: string) => out.push(s) },
      stderr: { write: (s: string) => out.push(s) },
      env: { VIDEO_API_KEY: 'k' },
      fetch,
    });
    expect(await runCli(['frobnicate'], io())).toBe(2);
    expect(await runCli(['process'], io())).toBe(2);
    expect(await runCli(['process', 'x.mp4', '--voice-generator', '7'], io())).toBe(2);
    const denied = fakeFetch(() =>
      json({ error: { code: 'unauthorized', message: 'bad key' }, request_id: 'req_9' }, 401),
    );
    expect(await runCli(['status', 'vid_x'], io(denied.fetch))).toBe(3);
    expect(out.join('')).toContain('unauthorized (HTTP 401): bad key request_id=req_9');
    const failed = fakeFetch(() => json(status({ status: 'failed', error_message: 'broken' })));
    expect(await runCli(['status', 'vid_x'], io(failed.fetch))).toBe(4);
  });

  it('should show the voice that spoke with the processing report', async () => {
    const out: string[] = [];
    const report = {
      options_applied: [],
      lip_sync: null,
      captions: 'alignment',
      voice: { engine: 'piper', voice_id: 'en_US-joe-medium' },
      output: { width: 640, height: 360, fps: 25, duration_sec: 3.2, fit: 'trim' },
      notes: [],
    };
    const done = fakeFetch(() =>
      json(
        status({
          status: 'completed',
          progress: 100,
          download_url: 'http://files.test/o.mp4?expires=1&token=t',
          processing_report: report as any,
        }),
      ),
    );
    const io = {
      stdout: { write: (s: string) => out.push(s) },
      stderr: { write: (s: string) => out.push(s) },
      env: { VIDEO_API_KEY: 'k' },
      fetch: done.fetch,
    };
    expect(await runCli(['status', 'vid_x'], io)).toBe(0);
    expect(out.join('')).toContain('voice: en_US-joe-medium (piper)');
    out.length = 0;
    const original = fakeFetch(() =>
      json(
        status({
          status: 'completed',
          progress: 100,
          processing_report: { ...report, voice: undefined } as any,
        }),
      ),
    );
    expect(await runCli(['status', 'vid_x'], { ...io, fetch: original.fetch })).toBe(0);
    expect(out.join('')).not.toContain('voice:');
  });
});
