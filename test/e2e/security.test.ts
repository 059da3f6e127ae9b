/**
 * Issue #34 on the real `npm start` stack (wrangler dev + the supervised media container):
 * - secrets: after requests with `?api_key=`, a provider credential (sent to a real local receiver
 *   standing in for the provider) and a download link's `token=`, none of the raw values is in the
 *   state folder, the stack's output or any process's argv, nor in an error message;
 * - no lockout: 61 bad keys from one address, then a valid key from it → served;
 * - self-healing: `kill -9` of the media container mid-job → the API keeps answering, the container
 *   is restarted, the job completes within 30 s of the container answering again (E2E_CRASH_RUNS
 *   runs, default 1; each run's figures are printed).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_UNAUTH_PER_MIN } from '../../src/auth/limits.js';
import { SHARED_MEDIA } from '../support/services.js';
import { startStack, type Stack } from './support/stack.js';

const PORT = Number(process.env.E2E_SECURITY_PORT ?? 8852);
const CONTAINER_PORT = PORT + 1;
const PROVIDER_PORT = PORT + 2;
const KEY = `dev_e2e_${randomBytes(12).toString('hex')}`;
const CREDENTIAL = `sk_e2e_${randomBytes(12).toString('hex')}`;
const CRASH_RUNS = Number(process.env.E2E_CRASH_RUNS ?? 1);
const CLIP = join(SHARED_MEDIA, 'talking_head', 'retalking_face3.mp4');

const work = mkdtempSync(join(tmpdir(), 'e2e-security-'));
const logFile = join(work, 'stack.log');
let stack: Stack;
let provider: Server;
const providerSaw: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  // The provider: a real HTTP receiver that refuses every key, quoting it as some providers do.
  provider = createServer((req, res) => {
    providerSaw.push(req.headers);
    req.resume();
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        detail: { status: 'invalid_api_key', message: `Invalid key ${req.headers['xi-api-key']}` },
      }),
    );
  });
  await new Promise<void>((r) => provider.listen(PROVIDER_PORT, '127.0.0.1', r));
  stack = await startStack({
    port: PORT,
    containerPort: CONTAINER_PORT,
    keys: KEY,
    logFile,
    env: {
      ELEVENLABS_BASE_URL: `http://127.0.0.1:${PROVIDER_PORT}`,
      // Fast retries, so the crash runs measure the resume and not a long backoff.
      JOB_RETRY_BASE_DELAY_SEC: '2',
    },
  });
});

afterAll(async () => {
  await stack?.stop();
  await new Promise((r) => provider?.close(r));
  rmSync(work, { recursive: true, force: true });
});

const api = (path: string, init: RequestInit & { key?: string | null } = {}) => {
  const headers = new Headers(init.headers);
  if (init.key !== null) headers.set('x-api-key', init.key ?? KEY);
  return fetch(`${stack.base}${path}`, { ...init, headers });
};

function submit(fields: Record<string, string>, clip = CLIP) {
  const form = new FormData();
  form.append('file', new Blob([readFileSync(clip)], { type: 'video/mp4' }), 'clip.mp4');
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return api('/api/process-video', { method: 'POST', body: form });
}

interface Status {
  status: string;
  progress: number;
  download_url: string | null;
  error_message: string | null;
}
const status = async (id: string) => (await (await api(`/api/status/${id}`)).json()) as Status;

async function until(id: string, done: (s: Status) => boolean, limitMs = 240_000): Promise<Status> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const s = await status(id);
    if (done(s)) return s;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${JSON.stringify(s)}\n${stack.log()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
const ended = (s: Status) => s.status === 'completed' || s.status === 'failed';

/** Every file under `dir` that holds `needle` (bytes, so SQLite pages and WAL files count too). */
function filesHolding(dir: string, needle: string): string[] {
  const found: string[] = [];
  const bytes = Buffer.from(needle);
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      const st = statSync(path, { throwIfNoEntry: false });
      if (!st) continue;
      if (st.isDirectory()) walk(path);
      else if (st.isFile() && readFileSync(path).includes(bytes)) found.push(path);
    }
  };
  walk(dir);
  return found;
}

describe('secrets are never stored (issue #34)', () => {
  it('should keep the API key, the provider credential and a download token out of the state folder, the logs and argv', async () => {
    // The key in the query string, as the spec allows.
    const byQuery = await fetch(`${stack.base}/api/status/vid_AAAAAAAAAAAAAAAAAAAAAA?api_key=${KEY}`);
    expect(byQuery.status).toBe(200);

    // A credential the provider cannot use (CR/LF): 400 at once, naming the field, never the value.
    const injected = await submit({
      voice_generator: '1',
      description: 'hello',
      credential_voice_generator: `${CREDENTIAL}\r\nX-Injected: 1`,
    });
    const refused = await injected.text();
    expect(injected.status).toBe(400);
    expect(JSON.parse(refused).error).toMatchObject({
      code: 'invalid_field',
      field: 'credential_voice_generator',
    });
    expect(refused).not.toContain(CREDENTIAL);

    // A credential the provider refuses (it quotes it back): the job fails at once, without it.
    const sent = await submit({
      voice_generator: '1',
      description: 'hello',
      credential_voice_generator: CREDENTIAL,
    });
    expect(sent.status).toBe(200);
    const voiced = (await sent.json()) as { video_id: string };
    const t0 = Date.now();
    const failed = await until(voiced.video_id, ended, 60_000);
    expect(failed.status).toBe('failed');
    expect(Date.now() - t0).toBeLessThan(30_000); // not retried
    expect(failed.error_message).toMatch(/401|unauthori[sz]ed|refused|invalid/i);
    expect(failed.error_message).not.toContain(CREDENTIAL);
    expect(providerSaw.map((h) => h['xi-api-key'])).toContain(CREDENTIAL); // it was really used

    // A download link's token.
    const made = (await (await submit({ blur_background: 'false' })).json()) as { video_id: string };
    const done = await until(made.video_id, ended);
    expect(done.status).toBe('completed');
    const token = new URL(done.download_url!).searchParams.get('token')!;
    expect(token.length).toBeGreaterThan(10);
    expect((await fetch(done.download_url!)).status).toBe(200);

    await new Promise((r) => setTimeout(r, 1500)); // let the state's writes land
    const secrets = { api_key: KEY, credential: CREDENTIAL, token };
    const argv = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => !line.includes('ps -eo'));
    const log = readFileSync(logFile, 'utf8');
    for (const [name, value] of Object.entries(secrets)) {
      expect(filesHolding(stack.persist, value), `${name} in the state folder`).toEqual([]);
      expect(log.includes(value), `${name} in the stack's output`).toBe(false);
      expect(
        argv.filter((line) => line.includes(value)),
        `${name} in a process's argv`,
      ).toEqual([]);
    }
    // The sealed credential is there (the job record), the trace store is not.
    expect(filesHolding(stack.persist, 'sealed.v1.').length).toBeGreaterThan(0);
    expect(readdirSync(join(stack.persist, 'v3'))).not.toContain('observability');
  });
});

describe('no lockout (issue #34)', () => {
  it('should serve a valid key after 61 bad ones from the same address, and still refuse the bad ones', async () => {
    for (let i = 0; i <= DEFAULT_UNAUTH_PER_MIN; i++) {
      const res = await api('/api/status/vid_AAAAAAAAAAAAAAAAAAAAAA', { key: `wrong-${i}` });
      expect(res.status).toBe(i < DEFAULT_UNAUTH_PER_MIN ? 401 : 429);
      await res.body?.cancel();
    }
    // Rotating X-Forwarded-For does not buy more guesses under npm start.
    const rotated = await api('/api/status/vid_x', {
      key: 'wrong',
      headers: { 'x-forwarded-for': '198.51.100.9' },
    });
    expect(rotated.status).toBe(429);
    const valid = await api('/api/status/vid_AAAAAAAAAAAAAAAAAAAAAA');
    expect(valid.status).toBe(200);
    const upload = await submit({ blur_background: 'false' });
    expect(upload.status).toBe(200);
    const id = ((await upload.json()) as { video_id: string }).video_id;
    await api(`/api/status/${id}`, { method: 'DELETE' });
  });
});

/** The media container's process: a child of the stack's `scripts/start.mjs`. */
function mediaPid(): number {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(stack.pid)], { encoding: 'utf8' });
  const line = out.split('\n').find((l) => l.includes('containers/media/server/main.ts'));
  if (!line) throw new Error(`no media container under ${stack.pid}:\n${out}`);
  return Number(line.trim().split(/\s+/)[0]);
}

describe('a crashed media container heals itself (issue #34)', () => {
  it(`should restart it, keep the API answering, and finish the job within 30 s of the container's return (${CRASH_RUNS} run(s))`, async () => {
    // A 20 s clip: long enough for the kill to land mid-render.
    const long = join(work, 'long.mp4');
    execFileSync('ffmpeg', ['-v', 'error', '-stream_loop', '3', '-i', CLIP, '-c', 'copy', '-y', long]);
    const figures: string[] = [];
    for (let run = 1; run <= CRASH_RUNS; run++) {
      const res = await submit({ blur_background: 'true' }, long);
      expect(res.status).toBe(200);
      const id = ((await res.json()) as { video_id: string }).video_id;
      const before = await until(id, (s) => ended(s) || (s.status === 'processing' && s.progress >= 15));
      expect(before.status, 'the job ended before the kill').toBe('processing');

      const pid = mediaPid();
      const tKill = Date.now();
      process.kill(pid, 'SIGKILL');
      // The API answers throughout; the container comes back on its own.
      let apiFailures = 0;
      let apiAnswers = 0;
      let tReady = 0;
      while (!tReady) {
        const health = await fetch(`${stack.base}/healthz`).catch(() => null);
        if (health?.ok) apiAnswers++;
        else apiFailures++;
        const media = await fetch(`http://127.0.0.1:${CONTAINER_PORT}/health`).catch(() => null);
        if (media?.ok && Date.now() - tKill > 200) tReady = Date.now();
        else await new Promise((r) => setTimeout(r, 200));
        if (Date.now() - tKill > 60_000) throw new Error(`the container did not come back\n${stack.log()}`);
      }
      expect(mediaPid()).not.toBe(pid);
      const after = await until(id, ended, 180_000);
      const tDone = Date.now();
      const figure = `run ${run}: progress ${before.progress} at the kill; container answering ${((tReady - tKill) / 1000).toFixed(1)} s after it; job ${after.status} ${((tDone - tReady) / 1000).toFixed(1)} s after that (${((tDone - tKill) / 1000).toFixed(1)} s after the kill); API ${apiAnswers} answers, ${apiFailures} failures during the restart`;
      figures.push(figure);
      console.log(`[crash] ${figure}`);
      expect(after.status).toBe('completed');
      expect(apiFailures).toBe(0);
      expect(tDone - tReady).toBeLessThanOrEqual(30_000);
    }
    expect(figures).toHaveLength(CRASH_RUNS);
  });
});
