/**
 * The media container dies mid-job (SIGKILL), on the real stack: wrangler dev (the Worker with
 * local R2, Durable Objects and Queues, as `npm start` runs it) and the media service as a
 * process of its own, so it can be killed and started again while the Worker keeps running.
 * - restarted within the retry budget: the jobs are retried with backoff and complete;
 * - still down past it: the dead-letter queue fails them with the last error; never `processing`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ROOT, SHARED_MEDIA, waitFor } from '../support/services.js';

// Below Linux's ephemeral range (32768–60999), where the OS hands out ports to every other socket:
// a fixed port chosen there can be taken already (the inspector's bind failed once on CI).
const PORT = 21_000 + Math.floor(Math.random() * 4_000);
const MEDIA_PORT = PORT + 1;
const BASE = `http://127.0.0.1:${PORT}`;
const KEY = 'e2e-faults-key';
const CLIP = (name: string) => join(SHARED_MEDIA, 'talking_head', name);
/**
 * Retries fast enough for a test, slow enough to outlast a media service restart (5 attempts
 * over ~10–22 s). A short stall timeout: wrangler dev reloads the Worker when a source file
 * changes and its local queue then loses the message in flight; the watchdog re-dispatches it.
 */
const RETRY_ENV = {
  JOB_RETRY_BASE_DELAY_SEC: '2',
  JOB_RETRY_MAX_DELAY_SEC: '8',
  JOB_STALL_TIMEOUT_MS: '20000',
};

let wrangler: ChildProcess | null = null;
let media: ChildProcess | null = null;
const log: string[] = [];
const keep = (d: Buffer) => {
  if (process.env.E2E_FAULTS_LOG) appendFileSync(process.env.E2E_FAULTS_LOG, d);
  log.push(d.toString());
  if (log.length > 400) log.splice(0, log.length - 400);
};

/** Each in its own process group, so a kill reaches its children (tsx's node, ffmpeg) too. */
function start(cmd: string, args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(cmd, args, {
    cwd: ROOT,
    env: { ...process.env, PATH: `${join(ROOT, 'node_modules/.bin')}:${process.env.PATH}`, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return child;
}

async function kill(child: ChildProcess | null): Promise<void> {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  process.kill(-child.pid, 'SIGKILL');
  await exited;
}

async function startMedia(): Promise<void> {
  media = start('tsx', ['containers/media/server/main.ts'], { PORT: String(MEDIA_PORT), HOST: '127.0.0.1' });
  await waitFor(`http://127.0.0.1:${MEDIA_PORT}/health`, 60_000);
}

/** The media service dies as a container would: SIGKILL, no shutdown, connections cut. */
async function killMedia(): Promise<void> {
  await kill(media);
  media = null;
}

async function submit(path: string, clip: string, fields: Record<string, string>): Promise<string> {
  const fd = new FormData();
  fd.append('file', new Blob([readFileSync(clip)], { type: 'video/mp4' }), clip.split('/').pop());
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  const res = await fetch(`${BASE}${path}`, { method: 'POST', body: fd, headers: { 'X-API-Key': KEY } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { video_id: string }).video_id;
}

interface Status {
  status: string;
  progress: number;
  error_message: string | null;
}

async function status(id: string): Promise<Status> {
  const res = await fetch(`${BASE}/api/status/${id}`, { headers: { 'X-API-Key': KEY } });
  expect(res.status).toBe(200);
  return (await res.json()) as Status;
}

async function until(id: string, done: (s: Status) => boolean, timeout: number): Promise<Status> {
  let last: Status | undefined;
  const reached = async () => ((last = await status(id)), done(last) ? last : false);
  return vi.waitUntil(reached, { timeout, interval: 250 }).catch(() => {
    throw new Error(
      `job ${id} still ${last?.status} (${last?.progress}%) after ${timeout} ms\n${log.join('').slice(-4000)}`,
    );
  });
}

const finished = (s: Status) => s.status === 'completed' || s.status === 'failed';

/** Submits an analysis and a processing job and waits until both are being processed. */
async function submitPair(
  analysisClip: string,
  processClip: string,
): Promise<{ analysis: string; processing: string }> {
  const analysis = await submit('/api/analyze-video', CLIP(analysisClip), { visual_analytics: 'true' });
  const processing = await submit('/api/process-video', CLIP(processClip), { blur_background: 'true' });
  // One batch may hold both, or they run one after the other: the first one running is enough.
  await Promise.race(
    [analysis, processing].map((id) => until(id, (s) => s.status === 'processing' || finished(s), 60_000)),
  );
  return { analysis, processing };
}

let persist = '';

beforeAll(async () => {
  persist = mkdtempSync(join(tmpdir(), 'e2e-faults-state-'));
  await startMedia();
  const vars = { CONTAINER_URL: `http://127.0.0.1:${MEDIA_PORT}`, DEV_API_KEY: KEY, ...RETRY_ENV };
  // As scripts/start.mjs runs it, minus the media service (started above, so it can be killed alone).
  wrangler = start(
    'wrangler',
    [
      'dev',
      '-c',
      'wrangler.toml',
      '-c',
      'wasm/edge-audio/wrangler.toml',
      '--ip',
      '127.0.0.1',
      '--port',
      String(PORT),
      '--persist-to',
      persist,
      '--inspector-port',
      String(PORT + 2),
      '--show-interactive-dev-session=false',
      ...Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}:${v}`]),
    ],
    { WRANGLER_SEND_METRICS: 'false' },
  );
  try {
    await waitFor(`${BASE}/healthz`, 150_000);
  } catch (err) {
    throw new Error(`${(err as Error).message}\n${log.join('').slice(-4000)}`);
  }
}, 200_000);

afterAll(async () => {
  await kill(wrangler);
  await killMedia();
  if (persist) rmSync(persist, { recursive: true, force: true });
});

describe('media container killed mid-job', () => {
  it('should complete both jobs when the media service comes back within the retry budget', async () => {
    const { analysis, processing } = await submitPair('retalking_face3.mp4', 'retalking_face3.mp4');
    const before = await Promise.all([status(analysis), status(processing)]);
    await killMedia();
    await new Promise((r) => setTimeout(r, 1_000));
    await startMedia();
    const after = await Promise.all([
      until(analysis, finished, 150_000),
      until(processing, finished, 150_000),
    ]);
    console.log(
      `kill + restart: ${before.map((s) => `${s.status} ${s.progress}%`).join(', ')} → ${after.map((s) => `${s.status} ${s.error_message ?? ''}`).join(', ')}`,
    );
    for (const s of after)
      expect(s).toMatchObject({ status: 'completed', progress: 100, error_message: null });
    const result = (await (
      await fetch(`${BASE}/api/status/${analysis}`, { headers: { 'X-API-Key': KEY } })
    ).json()) as { result: { merged_visual_time_series?: unknown[] } };
    expect(result.result.merged_visual_time_series?.length).toBeGreaterThan(0);
  });

  it('should fail both jobs with the last error when the media service stays down', async () => {
    const { analysis, processing } = await submitPair('retalking_face1.mp4', 'retalking_face3.mp4');
    // Deeper in: the analysis has its probe and audio, and is in speech recognition (19 %) or later.
    await until(analysis, (s) => s.progress >= 19 || finished(s), 90_000);
    await killMedia();
    const started = Date.now();
    const after = await Promise.all([
      until(analysis, finished, 150_000),
      until(processing, finished, 150_000),
    ]);
    console.log(
      `kill, no restart: failed after ${Math.round((Date.now() - started) / 1000)} s: ${after.map((s) => s.error_message).join(' | ')}`,
    );
    for (const s of after) {
      expect(s.status).toBe('failed');
      // From the dead-letter queue; or from the watchdog, if a reload lost the message in flight.
      expect(s.error_message).toMatch(
        /^(processing failed after repeated attempts|the worker processing the job stopped responding \(\d restarts tried\)): the media service could not be reached for [a-z ]+: .+/,
      );
    }
  });
});
