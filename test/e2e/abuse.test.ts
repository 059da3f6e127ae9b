/**
 * Bounded work (issue #12), on the real `npm start` stack: the abuse corpus
 * (test/fixtures/abuse/make-corpus.ts: forged durations, 1×1 and odd sizes, truncated files,
 * forged frame rates, 50 audio streams, still images, nested containers…) goes through analysis
 * and processing, and
 * - every file gets a clear 4xx or a job that ends (completed, or failed with a plain message:
 *   no ffmpeg internals) within a time bound; never a 5xx; never a stuck job;
 * - a normal job of another key completes in about its normal time while a slow job runs;
 * - DELETE of a running job stops its processes within 5 s.
 * The figures are printed (`[abuse]` lines) for docs/limits.md and the issue.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCorpus, TALKING_HEAD, type AbuseMedia } from '../fixtures/abuse/make-corpus.js';
import { cpuByRole } from '../../bench/support/service-cpu.js';
import { ROOT } from '../support/services.js';
import { startStack, type Stack } from './support/stack.js';

// Below Linux's ephemeral range (32768–60999), as are its container port (+1) and inspector (+1442,
// scripts/start.mjs); `E2E_PORT` picks it (machines shared by several checkouts give each its ports).
const PORT = Number(process.env.E2E_PORT) || 26_000 + Math.floor(Math.random() * 4_000);
const ABUSER = 'e2e-abuse-a';
const NEIGHBOUR = 'e2e-abuse-b';
/** Longest a malformed upload may take from upload to its final state (generous: 2 shared cores). */
const FINAL_WITHIN_MS = 120_000 * Math.max(1, Number(process.env.ABUSE_ROUNDS) || 1);
/** Soak: `ABUSE_ROUNDS=5` sends the whole corpus that many times at once (default 1). */
const ROUNDS = Math.max(1, Number(process.env.ABUSE_ROUNDS) || 1);
/** ffmpeg's own words must not reach users. */
const INTERNALS = /stream #\d|#\d+:\d+|exited with code|ffmpeg|ffprobe|\/tmp\//i;

let stack: Stack;
let dir: string;
let corpus: AbuseMedia[];
let slowClip: string;
let normalClip: string;

interface Final {
  status: string;
  error_message: string | null;
  result: { summary?: { duration_sec?: number } } | null;
  ms: number;
}

async function submit(
  path: string,
  file: string,
  fields: Record<string, string>,
  key: string,
): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([readFileSync(file)]), file.split('/').pop());
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return fetch(`${stack.base}${path}`, { method: 'POST', body: form, headers: { 'x-api-key': key } });
}

async function waitFinal(id: string, key: string, limitMs = FINAL_WITHIN_MS): Promise<Final> {
  const t0 = Date.now();
  for (;;) {
    const s = (await (
      await fetch(`${stack.base}/api/status/${id}`, { headers: { 'x-api-key': key } })
    ).json()) as Final;
    if (s.status === 'completed' || s.status === 'failed' || Date.now() - t0 > limitMs)
      return { ...s, ms: Date.now() - t0 };
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** ffmpeg processes anywhere under the stack's process tree (they run in their own process groups). */
function ffmpegsUnder(root: number): number[] {
  const parent = new Map<number, number>();
  const comm = new Map<number, string>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      comm.set(Number(name), stat.slice(stat.indexOf('(') + 1, close));
      parent.set(Number(name), Number(stat.slice(close + 2).split(' ')[1]));
    } catch {
      /* gone */
    }
  }
  const under = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === root) return true;
    return false;
  };
  return [...comm].filter(([pid, c]) => c.startsWith('ffmpeg') && under(pid)).map(([pid]) => pid);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A normal job of the neighbour key (analysis of a 5 s talking head), submitted and waited for; its wall time. */
async function normalJob(cpu?: Map<string, number>): Promise<number> {
  const t0 = Date.now();
  const sampler = cpuByRole(ROOT);
  const res = await submit('/api/analyze-video', normalClip, {}, NEIGHBOUR);
  expect(res.status).toBe(200);
  const done = await waitFinal(((await res.json()) as { video_id: string }).video_id, NEIGHBOUR);
  expect(done.status).toBe('completed');
  const ms = Date.now() - t0;
  for (const [role, sec] of sampler.stop()) cpu?.set(role, (cpu.get(role) ?? 0) + sec);
  return ms;
}

/** Median wall time of `n` normal jobs, and the service's CPU seconds per process role during them (per job). */
async function normalJobs(n = 3): Promise<{ ms: number; cpu: string }> {
  const cpu = new Map<string, number>();
  const times: number[] = [];
  for (let i = 0; i < n; i++) times.push(await normalJob(cpu));
  return { ms: median(times), cpu: cpuLine(cpu, n) };
}

/** "workerd 1.2, ffmpeg 0.4, …" (CPU seconds per job, largest first), where the time went. */
const cpuLine = (cpu: Map<string, number>, jobs: number) =>
  [...cpu]
    .filter(([, s]) => s / jobs >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([role, s]) => `${role} ${(s / jobs).toFixed(2)}`)
    .join(', ');

beforeAll(async () => {
  // The stack boots (its own processes) while the corpus is made here; no test starts before both.
  const starting = startStack({
    port: PORT,
    containerPort: PORT + 1,
    keys: `${ABUSER},${NEIGHBOUR}`,
    env: { MAX_CONCURRENT_JOBS: '100', RATE_LIMIT_PER_MIN: '2000', STATUS_RATE_LIMIT_PER_MIN: '100000' },
  });
  starting.catch(() => {}); // its failure is reported by the await below
  try {
    await makeMedia();
  } catch (err) {
    await (await starting.catch(() => null))?.stop();
    throw err;
  }
  stack = await starting;
});

/** The abuse corpus, the normal clip and the slow job's clip, in `dir`. */
async function makeMedia(): Promise<void> {
  dir = mkdtempSync(join(tmpdir(), 'abuse-corpus-'));
  corpus = (await makeCorpus(dir)).filter((m) => !m.name.startsWith('base'));
  normalClip = existsSync(TALKING_HEAD) ? TALKING_HEAD : join(dir, 'base.mp4');
  // The slow job: 5 min of small video with background blur (minutes of segmentation and encoding).
  slowClip = join(dir, 'slow-300s.mp4');
  execFileSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc=s=320x240:r=25:d=300',
    '-f',
    'lavfi',
    '-i',
    'sine=d=300',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-crf',
    '35',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    '32k',
    '-shortest',
    slowClip,
  ]);
}

afterAll(async () => {
  await stack?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true }); // ≈ 5.5 MB per run: every run left one behind
});

describe('abuse corpus (issue #12)', () => {
  it('should answer every malformed file with a 4xx or a job that ends plainly, in bounded time, never a 5xx', async () => {
    const runs: Array<{ media: AbuseMedia; kind: string; status: number; final?: Final; code?: string }> = [];
    const t0 = Date.now();
    await Promise.all(
      Array.from({ length: ROUNDS }, () => corpus)
        .flat()
        .flatMap((media) =>
          (['/api/analyze-video', '/api/process-video'] as const).map(async (path) => {
            const res = await submit(
              path,
              media.path,
              path === '/api/process-video' ? {} : { visual_analytics: 'true' },
              ABUSER,
            );
            const kind = path.includes('analyze') ? 'analysis' : 'processing';
            const body = (await res.json()) as { video_id?: string; error?: { code: string } };
            if (res.status !== 200)
              return void runs.push({ media, kind, status: res.status, code: body.error?.code });
            runs.push({ media, kind, status: 200, final: await waitFinal(body.video_id!, ABUSER) });
          }),
        ),
    );
    const lines = runs.map(
      (r) =>
        `${r.media.name.padEnd(24)} ${r.kind.padEnd(10)} ${r.status} ${r.final ? `${r.final.status} ${(r.final.ms / 1000).toFixed(1)} s ${r.final.error_message ?? ''}` : r.code}`,
    );
    console.log(`[abuse] corpus results\n${lines.sort().join('\n')}`);
    const fivexx = runs.filter((r) => r.status >= 500);
    const stuck = runs.filter(
      (r) => r.final && r.final.status !== 'completed' && r.final.status !== 'failed',
    );
    const longest = Math.max(...runs.map((r) => r.final?.ms ?? 0));
    console.log(
      `[abuse] files ${corpus.length} × ${ROUNDS} round(s), requests ${runs.length}, 5xx ${fivexx.length}, stuck ${stuck.length}, longest upload→final ${(longest / 1000).toFixed(1)} s, all done in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
    expect(fivexx.map((r) => r.media.name)).toEqual([]);
    expect(stuck.map((r) => r.media.name)).toEqual([]);
    for (const r of runs) {
      if (r.status !== 200) {
        expect(r.status, r.media.name).toBeGreaterThanOrEqual(400);
        continue;
      }
      const f = r.final!;
      if (f.status === 'failed') expect(f.error_message, `${r.media.name} ${r.kind}`).not.toMatch(INTERNALS);
      // Media that is fine must be processed; media that cannot be must say so (not complete empty).
      const allowed =
        r.media.expect === 'fail'
          ? ['failed']
          : r.media.expect === 'ok'
            ? ['completed']
            : ['completed', 'failed'];
      // An audio-only file is fine for analysis, never for processing; a 1×1 video is refused either way.
      if (!(r.media.name === 'audio-only.mp4' && r.kind === 'analysis'))
        expect(allowed, `${r.media.name} ${r.kind}: ${f.status} ${f.error_message}`).toContain(f.status);
    }
    // Finding 1: the forged header does not decide the duration.
    // (Every analysis of it that was admitted: in a soak the key's rate limit may refuse one with 429.)
    const forged = runs.filter(
      (r) => r.media.name === 'forged-duration.mp4' && r.kind === 'analysis' && r.final,
    );
    expect(forged.length).toBeGreaterThan(0);
    for (const r of forged) expect(r.final!.result!.summary!.duration_sec).toBeLessThan(6);
  });

  it('should not delay a normal job of another key while the abusive files of finding 1 and 2 run', async () => {
    // Medians of 3: single runs on two shared cores vary by ±50 %. One job first, not counted: the
    // first job after the service starts loads the models, which would inflate the solo time.
    await normalJob();
    const solo = await normalJobs();
    const abusive = [
      'forged-duration.mp4',
      'tiny-1x1.mp4',
      'forged-fps.mp4',
      'huge-16k-frames.mkv',
      'truncated-half.mp4',
    ].map((n) => join(dir, n));
    const times: number[] = [];
    const cpu = new Map<string, number>();
    for (let round = 0; round < 3; round++) {
      const ids = await Promise.all(
        abusive.map(
          async (f) =>
            ((await (await submit('/api/process-video', f, {}, ABUSER)).json()) as { video_id: string })
              .video_id,
        ),
      );
      times.push(await normalJob(cpu));
      for (const id of ids) expect(['completed', 'failed']).toContain((await waitFinal(id, ABUSER)).status);
    }
    const loaded = median(times);
    console.log(
      `[abuse] normal job of another key: solo ${(solo.ms / 1000).toFixed(2)} s, while ${abusive.length} abusive jobs run ${(loaded / 1000).toFixed(2)} s (${loaded >= solo.ms ? '+' : ''}${Math.round(((loaded - solo.ms) / solo.ms) * 100)} %)\n[abuse]   CPU s per normal job, solo: ${solo.cpu}\n[abuse]   beside the abusive jobs: ${cpuLine(cpu, times.length)}`,
    );
    expect(loaded).toBeLessThan(solo.ms * 2 + 5_000);
  });

  it('should complete a normal job of another key in its normal time while a slow job runs, and stop the slow job within 5 s of DELETE', async () => {
    const solo = await normalJobs();
    const slow = await submit('/api/process-video', slowClip, { blur_background: 'true' }, ABUSER);
    const slowId = ((await slow.json()) as { video_id: string }).video_id;
    // Wait until the slow job's render is running in the media service.
    const t0 = Date.now();
    while (ffmpegsUnder(stack.pid).length < 2 && Date.now() - t0 < 60_000)
      await new Promise((r) => setTimeout(r, 300));
    expect(ffmpegsUnder(stack.pid).length).toBeGreaterThanOrEqual(2);
    const beside = await normalJobs();
    const loaded = beside.ms;
    const added = (loaded - solo.ms) / solo.ms;
    console.log(
      `[abuse] normal job of another key: solo ${(solo.ms / 1000).toFixed(2)} s, beside a slow job ${(loaded / 1000).toFixed(2)} s (${added >= 0 ? '+' : ''}${Math.round(added * 100)} %)\n[abuse]   CPU s per normal job, solo: ${solo.cpu}\n[abuse]   beside the slow job: ${beside.cpu}`,
    );
    // Before #12 it waited for the slow job to end (minutes): on two shared cores the slow job's
    // CPU still costs some time, so the bound is generous; the figure above is the measurement.
    expect(loaded).toBeLessThan(solo.ms * 3 + 10_000);
    expect((await waitFinal(slowId, ABUSER, 1)).status).toBe('processing');

    const d0 = Date.now();
    const del = await fetch(`${stack.base}/api/jobs/${slowId}`, {
      method: 'DELETE',
      headers: { 'x-api-key': ABUSER },
    });
    expect(del.status).toBe(204);
    while (ffmpegsUnder(stack.pid).length > 0 && Date.now() - d0 < 30_000)
      await new Promise((r) => setTimeout(r, 100));
    const stoppedMs = Date.now() - d0;
    console.log(
      `[abuse] DELETE → the slow job's ffmpeg processes gone in ${(stoppedMs / 1000).toFixed(2)} s`,
    );
    expect(ffmpegsUnder(stack.pid)).toEqual([]);
    expect(stoppedMs).toBeLessThan(5_000);
  });
});
