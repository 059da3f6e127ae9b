/**
 * Bench of GET /api/jobs with 10,000 jobs of one key: p50/p99 of the first page against a deep page
 * (past 9,900 jobs) and a status-filtered deep page. The rows are written through the tenant
 * object's `indexJob`, as the Job objects write them; each request goes through the Worker (auth,
 * rate limit, the tenant object's SQLite page).
 *
 *   flock /tmp/heavy.lock npx vitest run -c bench/lists/vitest.config.ts
 *
 * BENCH_JOBS (default 10000) and BENCH_RUNS (default 300) may be set in the environment of the run.
 */
import { env, runInDurableObject, SELF } from 'cloudflare:test';
import { it } from 'vitest';
import type { TenantObject } from '../../src/jobs/tenant-object.js';
import { devTenant } from '../../test/worker/helpers.js';

const KEY = 'bench-key';
const vars = env as unknown as Record<string, string>;
const JOBS = Number(vars.BENCH_JOBS);
const RUNS = Number(vars.BENCH_RUNS);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

async function timed(path: string): Promise<{ p50: number; p99: number; count: number }> {
  const times: number[] = [];
  let count = 0;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const res = await SELF.fetch(`http://bench.test${path}`, { headers: { 'x-api-key': KEY } });
    const body = await res.json<{ data: unknown[] }>();
    times.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    count = body.data.length;
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99), count };
}

it(`GET /api/jobs over ${JOBS} jobs of one key`, async () => {
  const stub = env.TENANT.get(env.TENANT.idFromName(await devTenant(KEY)));
  const t0 = performance.now();
  await runInDurableObject(stub, async (o: TenantObject) => {
    for (let i = 0; i < JOBS; i++)
      await o.indexJob({
        video_id: `vid_${String(i).padStart(22, '0')}`,
        kind: i % 2 ? 'analysis' : 'processing',
        status: i % 10 === 0 ? 'failed' : 'completed',
        progress: 100,
        created_at: 1_800_000_000_000 + i * 1000,
        finished_at: 1_800_000_000_000 + i * 1000 + 500,
        expires_at: null,
      });
  });
  const insertMs = performance.now() - t0;

  // The cursor of the page that starts past JOBS - 100 jobs: walk there once with limit=100.
  let cursor: string | null = null;
  for (let seen = 0; seen < JOBS - 100; seen += 100) {
    const res = await SELF.fetch(`http://bench.test/api/jobs?limit=100${cursor ? `&cursor=${cursor}` : ''}`, {
      headers: { 'x-api-key': KEY },
    });
    cursor = (await res.json<{ next_cursor: string }>()).next_cursor;
  }
  const rows = [
    ['first page (limit=20)', await timed('/api/jobs?limit=20')],
    [`deep page (limit=20, after ${JOBS - 100})`, await timed(`/api/jobs?limit=20&cursor=${cursor}`)],
    ['first page (limit=100)', await timed('/api/jobs?limit=100')],
    [`deep page (limit=100, after ${JOBS - 100})`, await timed(`/api/jobs?limit=100&cursor=${cursor}`)],
    ['status=failed, deep page (limit=20)', await timed(`/api/jobs?limit=20&status=failed&cursor=${cursor}`)],
  ] as const;
  console.log(`\n${JOBS} jobs indexed in ${(insertMs / 1000).toFixed(1)} s; ${RUNS} requests per row`);
  console.log('page                                        rows   p50 ms   p99 ms');
  for (const [name, r] of rows)
    console.log(
      `${name.padEnd(44)}${String(r.count).padStart(4)}${r.p50.toFixed(2).padStart(9)}${r.p99.toFixed(2).padStart(9)}`,
    );
});
