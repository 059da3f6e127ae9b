import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

/**
 * The list bench (`npx vitest run -c bench/lists/vitest.config.ts`): the Worker in workerd with its
 * real tenant Durable Object (SQLite), no media service (no job runs).
 */
export default defineProject({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: fileURLToPath(new URL('../../wrangler.toml', import.meta.url)) },
      miniflare: {
        serviceBindings: {
          EDGE_AUDIO: () => new Response('edge-audio disabled', { status: 503 }),
          JOB_RUNNER: () => new Response('no detached runs in the bench', { status: 503 }),
        },
        bindings: {
          DEV_API_KEY: 'bench-key',
          RATE_LIMIT_PER_MIN: '1000000',
          BENCH_JOBS: process.env.BENCH_JOBS ?? '10000',
          BENCH_RUNS: process.env.BENCH_RUNS ?? '300',
        },
      },
    }),
  ],
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    name: 'bench-lists',
    include: ['**/*.bench-run.ts'],
    testTimeout: 600_000,
  },
});
