/**
 * End to end: the real `npm start` stack (wrangler dev + media container process) over HTTP,
 * driven the way a client would: upload → poll → download, and a restart in the middle of a job.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateFixtures } from '../support/fixtures.js';
import { ROOT, SHARED_MEDIA, waitFor } from '../support/services.js';

const PORT = 18887;
const BASE = `http://127.0.0.1:${PORT}`;
const KEY = 'e2e-key-one';
const persist = mkdtempSync(join(tmpdir(), 'e2e-state-'));
let stack: ChildProcess | null = null;

async function startStack() {
  stack = spawn('node', ['scripts/start.mjs'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(PORT),
      CONTAINER_PORT: String(PORT + 1),
      PERSIST_DIR: persist,
      DEV_API_KEY: `${KEY},e2e-key-two`,
      JOB_STALL_TIMEOUT_MS: '8000',
      JOB_PENDING_REDISPATCH_MS: '8000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  stack.stdout!.on('data', () => {});
  stack.stderr!.on('data', () => {});
  await waitFor(`${BASE}/healthz`, 120_000);
}

async function stopStack() {
  if (!stack?.pid) return;
  const exited = new Promise((r) => stack!.once('exit', r));
  process.kill(-stack.pid, 'SIGKILL'); // the whole group: wrangler, workerd, the media service
  await exited;
  stack = null;
  await new Promise((r) => setTimeout(r, 1000));
}

async function upload(path: string, file: string, fields: Record<string, string> = {}) {
  const fd = new FormData();
  fd.append('file', new Blob([readFileSync(file)]), file.split('/').pop());
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  const res = await fetch(`${BASE}${path}`, { method: 'POST', body: fd, headers: { 'X-API-Key': KEY } });
  expect(res.status).toBe(200);
  return (await res.json()) as { video_id: string };
}

async function status(id: string) {
  const res = await fetch(`${BASE}/api/status/${id}`, { headers: { 'X-API-Key': KEY } });
  return (await res.json()) as { status: string; progress: number };
}

async function poll(id: string, timeout = 120_000) {
  type Final = {
    status: string;
    download_url: string | null;
    error_message: string | null;
    progress: number;
  };
  return vi.waitUntil(
    async () => {
      const body = (await (await fetch(`${BASE}/status/${id}?api_key=${KEY}`)).json()) as Final;
      return body.status === 'completed' || body.status === 'failed' ? body : false;
    },
    { timeout, interval: 500 },
  );
}

beforeAll(startStack, 180_000);
afterAll(async () => {
  await stopStack();
  rmSync(persist, { recursive: true, force: true });
});

describe('npm start, end to end', () => {
  it('should process a video and serve the output to a plain GET', async () => {
    const clip = join(generateFixtures(), 'tone-3s.mp4');
    const { video_id } = await upload('/api/process-video', clip, { blur_background: 'false' });
    const done = await poll(video_id);
    expect(done).toMatchObject({ status: 'completed', progress: 100, error_message: null });
    const file = await fetch(done.download_url!);
    expect(file.status).toBe(200);
    const out = join(persist, 'out.mp4');
    writeFileSync(out, new Uint8Array(await file.arrayBuffer()));
    const probe = JSON.parse(
      execFileSync('ffprobe', [
        '-v',
        'error',
        '-print_format',
        'json',
        '-show_streams',
        '-show_format',
        out,
      ]).toString(),
    );
    expect(probe.streams.map((s: { codec_name: string }) => s.codec_name).sort()).toEqual(['aac', 'h264']);
    expect(Number(probe.format.duration)).toBeGreaterThan(2.8);
  });

  it('should analyse the JFK speech with Whisper: the exact words, the engine named, no warning', async () => {
    const jfk = join(SHARED_MEDIA, 'speech/jfk.wav');
    expect(existsSync(jfk), `${jfk} (../shared beside the clone) is needed`).toBe(true);
    const { video_id } = await upload('/api/analyze-video', jfk);
    const done = await poll(video_id);
    expect(done).toMatchObject({ status: 'completed', error_message: null });
    const { result } = done as unknown as {
      result: { transcript: string; speech_engine: unknown; warnings?: string[] };
    };
    const words = (t: string) =>
      t
        .toLowerCase()
        .replace(/[^a-z' ]+/g, ' ')
        .split(/\s+/)
        .filter(Boolean)
        .join(' ');
    expect(words(result.transcript)).toBe(
      words(
        'And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.',
      ),
    );
    expect(result.speech_engine).toEqual({ engine: 'faster-whisper', model: 'faster-whisper-base' });
    expect(result.warnings ?? []).toEqual([]);
  });

  it('should finish a job interrupted by a restart of the whole stack', async () => {
    // Long enough to be caught mid-way: blur over a real talking-head clip when present.
    const shared = join(SHARED_MEDIA, 'talking_head/sadtalker_wda_katiehill.mp4');
    const clip = existsSync(shared) ? shared : join(generateFixtures(), 'tone-3s.mp4');
    const { video_id } = await upload('/api/process-video', clip, { blur_background: 'true' });
    await vi.waitUntil(async () => (await status(video_id)).status === 'processing', {
      timeout: 30_000,
      interval: 200,
    });
    const before = await status(video_id);
    await stopStack(); // kills the consumer mid-job; the local queue loses the in-flight message
    await startStack();
    // The job's alarm finds the stalled run and dispatches it again: the job completes, nothing is lost.
    const done = await poll(video_id, 120_000);
    console.log(
      `restart test: ${before.status} at ${before.progress}% before the kill → ${done.status} ${done.error_message ?? ''}`,
    );
    expect(before.status).toBe('processing');
    expect(done).toMatchObject({ status: 'completed', progress: 100, error_message: null });
    expect((await fetch(done.download_url!)).status).toBe(200);
  });
});
