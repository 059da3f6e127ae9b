/**
 * Per-key admission (issue #12, "one job never blocks another") through the media service's own
 * app, on real ffmpeg work: with one job per key, a key's second job waits for its first while
 * another key's job runs at once; DELETE ends a waiting request at once without touching the
 * running job; a request whose `x-admission-wait-ms` runs out is admitted anyway.
 * Job 1 is a real render (a plain H.264 encode of a generated 20 s 640×360 clip, ≥ 2 s here); the
 * other jobs are probes (≈ 0.3 s), so each one's timing shows whether it waited.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

let app: Hono;
let clip: Buffer;
const tmp = mkdtempSync(join(tmpdir(), 'admission-'));
/** The service's admission log lines (`admission`, `waited_ms`), read as it prints them. */
let admissionLog: { job_id: string; admission: string; waited_ms: number }[] = [];

beforeAll(async () => {
  // One job per key, whatever this machine's core count (read when the module loads).
  process.env.MEDIA_JOBS_PER_KEY = '1';
  const { createMediaApp } = await import('../../containers/media/server/server.js');
  app = createMediaApp();
  const path = join(tmp, 'clip.mp4');
  // 20 s of 1280×720: its render (a full libx264 encode) must outlast a 600 ms allowance and a
  // probe on any CPU. 640×360 encoded in 0.8 s on an AVX-512 AMD EPYC and 2.5–3.5 s elsewhere, so
  // job 1 could end before the patient request's allowance ran out.
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=s=1280x720:r=25:d=20'],
    ...['-f', 'lavfi', '-i', 'sine=d=20', '-c:v', 'libx264', '-preset', 'ultrafast'],
    ...['-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', path],
  ]);
  clip = readFileSync(path);
  const print = console.log.bind(console);
  vi.spyOn(console, 'log').mockImplementation((line: unknown, ...rest: unknown[]) => {
    try {
      const entry = JSON.parse(String(line));
      if (entry?.admission) admissionLog.push(entry);
    } catch {
      // not a JSON line
    }
    print(line, ...rest);
  });
});
afterAll(() => {
  vi.restoreAllMocks();
  rmSync(tmp, { recursive: true, force: true });
});
afterEach(() => {
  admissionLog = [];
});

const ids = { n: 0 };
const jobId = (name: string) => `vid_adm${name}${String(++ids.n).padStart(4, '0')}`.padEnd(24, '0');
const headers = (key: string, job: string, extra: Record<string, string> = {}) => ({
  'x-tenant-id': key,
  'x-job-id': job,
  ...extra,
});

interface Timed {
  status: number;
  body: unknown;
  bytes: number;
  /** ms from the test's t0 to the whole body read (the service's scope ends with its body). */
  endedAt: number;
}
const t0 = { at: 0 };
const timed = async (res: Response | Promise<Response>): Promise<Timed> => {
  const r = await res;
  const buf = Buffer.from(await r.arrayBuffer());
  const type = r.headers.get('content-type') ?? '';
  return {
    status: r.status,
    body: type.includes('json') ? JSON.parse(buf.toString()) : null,
    bytes: buf.length,
    endedAt: Date.now() - t0.at,
  };
};

/** Job 1 of a key: a real render of the clip. */
const render = (key: string, job: string) => {
  const fd = new FormData();
  fd.set('source', new Blob([clip]), 'source.mp4');
  fd.set('options', JSON.stringify({ blur_background: false }));
  return timed(app.request('/render', { method: 'POST', body: fd, headers: headers(key, job) }));
};
const probe = (key: string, job: string, extra?: Record<string, string>) =>
  timed(app.request('/probe', { method: 'POST', body: clip, headers: headers(key, job, extra) }));
const jobs = async () =>
  (await (await app.request('/jobs')).json()) as { running: string[]; waiting: string[] };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Polls until `check` holds (or `ms` pass); returns whether it held. */
const until = async (check: () => Promise<boolean> | boolean, ms = 2_000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await sleep(20);
  }
  return false;
};

/** Starts job 1 of `key` (the render), from a fresh t0, and waits until its work runs here. */
async function startJobOne(key: string) {
  t0.at = Date.now();
  const id = jobId('aone');
  const job = { ended: false, done: undefined as unknown as Promise<Timed> };
  job.done = render(key, id).finally(() => (job.ended = true));
  expect(await until(async () => (await jobs()).running.includes(id))).toBe(true);
  await sleep(200); // the render is past its upload and encoding
  return job;
}

describe('per-key admission through the media app (MEDIA_JOBS_PER_KEY=1)', () => {
  it('should hold a key’s second job until its first ends, while another key’s job runs at once', async () => {
    const [a2, b1] = [jobId('atwo'), jobId('bone')];
    const job1 = await startJobOne('key-a');
    const first = job1.done;

    const a2SentAt = Date.now() - t0.at;
    const second = probe('key-a', a2);
    expect(await until(async () => (await jobs()).waiting.includes(a2))).toBe(true);
    const other = await probe('key-b', b1);
    expect(other.status).toBe(200);
    // Key B did not wait for key A: its probe ended while A's render still ran.
    expect(job1.ended).toBe(false);
    expect((await jobs()).waiting).toEqual([a2]);

    const [one, two] = await Promise.all([first, second]);
    expect(one.status).toBe(200);
    expect(two.status).toBe(200);
    expect(one.endedAt).toBeGreaterThanOrEqual(1_000); // job 1 was real work
    expect(other.endedAt).toBeLessThan(one.endedAt);
    // Job 2 started only when job 1 ended: it ends after it, admitted on its turn.
    expect(two.endedAt).toBeGreaterThan(one.endedAt);
    expect(admissionLog.map((l) => [l.job_id, l.admission])).toEqual([[a2, 'turn']]);
    // It waited the whole rest of job 1 (less the moment between job 1's end and its body read here).
    expect(admissionLog[0].waited_ms).toBeGreaterThanOrEqual(one.endedAt - a2SentAt - 250);
    expect(await jobs()).toEqual({ running: [], waiting: [] });
  });

  it('should end a waiting request at once on DELETE, leave job 1 alone, and admit a request at the end of its allowance', async () => {
    const [deleted, impatient] = [jobId('adel'), jobId('await')];
    const job1 = await startJobOne('key-a');
    const first = job1.done;

    // A request that may wait 600 ms: then it runs anyway, beside job 1.
    const allowanceMs = 600;
    const patient = probe('key-a', impatient, { 'x-admission-wait-ms': String(allowanceMs) });
    const doomed = probe('key-a', deleted);
    expect(await until(async () => (await jobs()).waiting.includes(deleted))).toBe(true);
    expect((await jobs()).waiting).toContain(impatient);

    const del = await app.request(`/jobs/${deleted}`, { method: 'DELETE' });
    const deletedAt = Date.now() - t0.at;
    expect(await del.json()).toEqual({ aborted: 1 });
    const gone = await doomed;
    expect(gone.endedAt - deletedAt).toBeLessThan(1_000);
    expect(gone.status).toBe(422);
    expect(gone.body).toEqual({ error: { code: 'work_limit', message: 'the job was deleted' } });
    expect(job1.ended).toBe(false);
    expect((await jobs()).waiting).not.toContain(deleted);

    const late = await patient;
    expect(late.status).toBe(200);
    expect(job1.ended).toBe(false); // admitted by its allowance, not by job 1's end
    const entry = admissionLog.find((l) => l.job_id === impatient);
    expect(entry?.admission).toBe('waited too long');
    expect(entry?.waited_ms).toBeGreaterThanOrEqual(allowanceMs);
    expect(entry?.waited_ms).toBeLessThan(allowanceMs + 500);

    // Job 1 ran to its end, whole.
    const one = await first;
    expect(one.status).toBe(200);
    expect(one.bytes).toBeGreaterThan(100_000);
    expect(late.endedAt).toBeLessThan(one.endedAt);
    expect(admissionLog.map((l) => l.job_id)).toEqual([impatient]);
    expect(await jobs()).toEqual({ running: [], waiting: [] });
  });
});
