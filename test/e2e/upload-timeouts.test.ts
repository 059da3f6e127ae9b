/**
 * Issue #34, finding 6, on the real `npm start` stack (workerd's HTTP server, emulated R2): upload
 * bodies that stall or trickle get 408 `body_timeout` within the idle timeout (2 s here) and leave
 * nothing behind (no R2 object or part, no job, no recorded part), while a slow but steady body is
 * stored. Raw sockets (node:net) send the bodies at the pace each case needs. The stack's output
 * must hold no unhandled rejection.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendPaced, type PacedAnswer } from '../../bench/abuse/raw-request.js';
import { SHARED_MEDIA } from '../support/services.js';
import { startStack, type Stack } from './support/stack.js';

const PORT = Number(process.env.E2E_TIMEOUTS_PORT ?? 8856);
const KEY = `dev_e2e_${randomBytes(12).toString('hex')}`;
const IDLE_SEC = 2;
/** What the answer may take beyond the timeout: the cancel, the R2 abort, 2 shared cores. */
const MARGIN_MS = 5_000;
const CLIP = readFileSync(join(SHARED_MEDIA, 'talking_head', 'retalking_face3.mp4'));
const BOUNDARY = 'pace';

const work = mkdtempSync(join(tmpdir(), 'e2e-timeouts-'));
const logFile = join(work, 'stack.log');
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    port: PORT,
    containerPort: PORT + 1,
    keys: KEY,
    logFile,
    // One job slot: a stalled upload that kept one would refuse the next submission.
    env: { UPLOAD_IDLE_TIMEOUT_SEC: String(IDLE_SEC), MAX_CONCURRENT_JOBS: '1' },
  });
});

afterAll(async () => {
  await stack?.stop();
  rmSync(work, { recursive: true, force: true });
});

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${stack.base}${path}`, { ...init, headers: { 'x-api-key': KEY, ...init.headers } });

const json = async (r: Response | Promise<Response>) => (await (await r).json()) as Record<string, any>;

/** A multipart body with one file part holding `file`. */
function form(file: Buffer, name = 'file'): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="clip.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

const formHeaders = { 'x-api-key': KEY, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };

/**
 * What the stack's R2 holds, from the local R2's own tables: objects, and parts of uploads still
 * in progress. (A part whose body was cut leaves its partial bytes as a file no row refers to:
 * workerd's local disk store, not an object or part; docs/security.md.)
 */
function r2Held(): { objects: string[]; parts: string[] } {
  const held = { objects: [] as string[], parts: [] as string[] };
  const walk = (d: string): string[] =>
    existsSync(d)
      ? readdirSync(d).flatMap((name) => {
          const path = join(d, name);
          return statSync(path).isDirectory() ? walk(path) : name.endsWith('.sqlite') ? [path] : [];
        })
      : [];
  for (const file of walk(join(stack.persist, 'v3', 'r2'))) {
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE name = '_mf_objects'").all();
      if (tables.length === 0) continue;
      for (const row of db.prepare('SELECT key FROM _mf_objects').all()) held.objects.push(String(row.key));
      for (const row of db
        .prepare(
          'SELECT u.key AS key, p.part_number AS n FROM _mf_multipart_parts p JOIN _mf_multipart_uploads u USING (upload_id) WHERE u.state = 0',
        )
        .all())
        held.parts.push(`${row.key}#${row.n}`);
    } finally {
      db.close();
    }
  }
  held.objects.sort();
  held.parts.sort();
  return held;
}

function expectTimedOut(answer: PacedAnswer) {
  expect(answer.status, answer.body).toBe(408);
  const json = JSON.parse(answer.body);
  expect(json.error).toMatchObject({ code: 'body_timeout', reason: 'idle' });
  expect(json.request_id).toMatch(/\S/);
  expect(answer.answeredMs).toBeGreaterThanOrEqual(IDLE_SEC * 1000 - 100);
  expect(answer.answeredMs).toBeLessThan(IDLE_SEC * 1000 + MARGIN_MS);
}

describe('upload bodies that stall are cut (issue #34, finding 6)', () => {
  it('should answer 408 to a job form that stalls after 9 MiB, store nothing, and take the next submission at once', async () => {
    const before = r2Held();
    // More than one 8 MiB R2 part, so a part was written before the stall and must be aborted.
    const answer = await sendPaced({
      port: PORT,
      path: '/api/analyze-video',
      headers: formHeaders,
      body: form(randomBytes(10 * 1024 * 1024)),
      first: 9 * 1024 * 1024,
      trickle: null,
    });
    expectTimedOut(answer);
    expect(r2Held()).toEqual(before);
    expect((await json(api('/api/jobs'))).data).toEqual([]);

    const next = new FormData();
    next.append('file', new Blob([CLIP], { type: 'video/mp4' }), 'clip.mp4');
    const again = await api('/api/analyze-video', { method: 'POST', body: next });
    expect(again.status, await again.clone().text()).toBe(200);
    const { video_id } = await json(again);
    expect((await api(`/api/jobs/${video_id}`, { method: 'DELETE' })).status).toBe(204);
  });

  it('should answer 408 to a form that trickles (100 bytes every 500 ms)', async () => {
    const answer = await sendPaced({
      port: PORT,
      path: '/api/process-video',
      headers: formHeaders,
      body: form(CLIP),
      first: 1000,
      trickle: { bytes: 100, everyMs: 500 },
    });
    expectTimedOut(answer);
  });

  it('should store a slow but steady form (16 KiB every 500 ms, several idle timeouts long)', async () => {
    const body = form(CLIP);
    const answer = await sendPaced({
      port: PORT,
      path: '/api/analyze-video',
      headers: formHeaders,
      body,
      first: 16 * 1024,
      trickle: { bytes: 16 * 1024, everyMs: 500 },
    });
    expect(answer.status, answer.body).toBe(200);
    expect(answer.answeredMs).toBeGreaterThan(3 * IDLE_SEC * 1000);
    const { video_id } = JSON.parse(answer.body);
    expect((await api(`/api/jobs/${video_id}`, { method: 'DELETE' })).status).toBe(204);
  });

  it('should answer 408 to a resumable part that stalls, record no part, and take the part again at once', async () => {
    const created = await json(api('/api/uploads', { method: 'POST' }));
    const id = created.upload_id as string;
    const part = randomBytes(1024 * 1024);
    const before = r2Held();
    const putPart = (first: number, trickle: { bytes: number; everyMs: number } | null) =>
      sendPaced({
        port: PORT,
        method: 'PUT',
        path: `/api/uploads/${id}/parts/1`,
        headers: { 'x-api-key': KEY },
        body: part,
        first,
        trickle,
      });
    const stalled = await putPart(512 * 1024, null);
    expectTimedOut(stalled);
    expect(r2Held()).toEqual(before);
    expect((await json(api(`/api/uploads/${id}`))).parts).toEqual([]);

    const steady = await putPart(64 * 1024, { bytes: 64 * 1024, everyMs: 400 });
    expect(steady.status, steady.body).toBe(200);
    expect(JSON.parse(steady.body)).toEqual({ part: 1, size: part.length });
    expect((await api(`/api/uploads/${id}`, { method: 'DELETE' })).status).toBe(204);
  });

  it("should answer a form refused mid-body with its 400, never the dev proxy's 500", async () => {
    // An unknown field first, then 4 MiB of file: refused at the first part, while the body is
    // still arriving. Cancelled there, wrangler dev's proxy answered about half of such requests
    // 500 "Network connection lost"; the rest of the body is now read (up to MAX_DISCARDED_BYTES).
    const body = Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="video"\r\n\r\nx\r\n`),
      form(randomBytes(4 * 1024 * 1024)),
    ]);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await api('/api/analyze-video', {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        body,
      });
      statuses.push(res.status);
      const answer = await res.text();
      if (res.status === 400)
        expect(JSON.parse(answer).error).toMatchObject({ code: 'invalid_field', field: 'video' });
    }
    expect(statuses).toEqual(statuses.map(() => 400));
  });

  it('should leave no unhandled rejection in the stack output', () => {
    const log = readFileSync(logFile, 'utf8');
    expect(log).not.toMatch(/unhandled|uncaught/i);
  });
});
