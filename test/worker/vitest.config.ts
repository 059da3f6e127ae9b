import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

// Random loopback ports, so several runs can share a machine; global-setup.ts reads the same env.
// Below Linux's ephemeral range (32768+) and apart from the e2e stacks' ports (18887–31442).
process.env.TEST_MEDIA_PORT ??= String(10_000 + Math.floor(Math.random() * 8_000));
process.env.TEST_FIXTURE_PORT ??= String(Number(process.env.TEST_MEDIA_PORT) + 1);

/**
 * The edge-audio Worker (wasm/edge-audio, ffmpeg.wasm) runs beside the Worker under test as an
 * auxiliary Worker, so the root wrangler.toml's EDGE_AUDIO service binding (→ video-api-edge-audio,
 * entrypoint EdgeAudio) resolves as in production. Auxiliary Workers are not bundled by the
 * plugin, so it is built here the way it deploys (`wrangler deploy --dry-run`, ~10 s) into a
 * temporary folder. EDGE_AUDIO_TESTS=0 leaves it out (faster start): EDGE_AUDIO is then bound to a
 * stub that fails every call, so every decode falls back to the container path.
 */
function edgeAudioWorker() {
  if (process.env.EDGE_AUDIO_TESTS === '0') return [];
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const outdir = mkdtempSync(join(tmpdir(), 'edge-audio-test-'));
  process.on('exit', () => rmSync(outdir, { recursive: true, force: true }));
  const wrangler = join(
    dirname(createRequire(import.meta.url).resolve('wrangler/package.json')),
    'bin',
    'wrangler.js',
  );
  execFileSync(
    process.execPath,
    [wrangler, 'deploy', '--dry-run', '-c', 'wasm/edge-audio/wrangler.toml', '--outdir', outdir],
    {
      cwd: root,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  return [
    {
      name: 'video-api-edge-audio',
      // The bundle and the modules wrangler wrote beside it (ffmpeg-core.wasm), main module first.
      modulesRoot: outdir,
      modules: [
        { type: 'ESModule' as const, path: join(outdir, 'worker.js') },
        ...readdirSync(outdir)
          .filter((f) => f.endsWith('.wasm'))
          .map((f) => ({ type: 'CompiledWasm' as const, path: join(outdir, f) })),
      ],
      compatibilityDate: '2025-09-01',
      compatibilityFlags: ['nodejs_compat'],
    },
  ];
}

const edgeAudioWorkers = edgeAudioWorker();

export default defineProject({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: '../../wrangler.toml' },
      miniflare: {
        workers: edgeAudioWorkers,
        serviceBindings: {
          ...(edgeAudioWorkers.length === 0 && {
            EDGE_AUDIO: () => new Response('edge-audio disabled', { status: 503 }),
          }),
          // The pool's runner Worker has no JobRunner entrypoint; jobs run inline here (QUEUE_DETACHED_RUNS unset).
          JOB_RUNNER: () => new Response('no detached runs in the Worker tests', { status: 503 }),
        },
        // Tests need the consumer to pick messages up quickly.
        queueConsumers: {
          'video-api-jobs': { maxBatchTimeout: 0.05 },
          'video-api-webhooks': { maxBatchTimeout: 0.05 },
        },
        bindings: {
          // The real media service and fixture server, started by global-setup.ts.
          CONTAINER_URL: `http://127.0.0.1:${process.env.TEST_MEDIA_PORT}`,
          FIXTURES_URL: `http://127.0.0.1:${process.env.TEST_FIXTURE_PORT}`,
          DEV_API_KEY: 'test-key-alice,test-key-bob',
          SIGNING_SECRET: 'test-signing-secret',
          ADMIN_TOKEN: 'test-admin-token',
          // Webhook hosts are resolved by the fixture server's DNS-over-HTTPS stub (test/support/doh.ts), never a real resolver.
          WEBHOOK_DOH_URL: `http://127.0.0.1:${process.env.TEST_FIXTURE_PORT}/dns-query`,
          // Small enough to test 413 with a modest body.
          MAX_UPLOAD_BYTES: String(12 * 1024 * 1024),
          // Whether EDGE_AUDIO is the real edge-audio Worker (above) or the failing stub.
          EDGE_AUDIO_TESTS: edgeAudioWorkers.length > 0 ? '1' : '0',
        },
      },
    }),
  ],
  test: {
    name: 'worker',
    // After the unit project (group 0), one file at a time with the other heavy suites.
    sequence: { groupOrder: 1 },
    include: ['**/*.test.ts'],
    globalSetup: ['./global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
});
