import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineProject } from 'vitest/config';

// Random loopback ports, so several runs can share a machine; global-setup.ts reads the same env.
process.env.TEST_MEDIA_PORT ??= String(20_000 + Math.floor(Math.random() * 20_000));
process.env.TEST_FIXTURE_PORT ??= String(Number(process.env.TEST_MEDIA_PORT) + 1);

export default defineProject({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: '../../wrangler.toml' },
      miniflare: {
        // Tests need the consumer to pick messages up quickly.
        queueConsumers: { 'video-api-jobs': { maxBatchTimeout: 0.05 } },
        bindings: {
          // The real media service and fixture server, started by global-setup.ts.
          CONTAINER_URL: `http://127.0.0.1:${process.env.TEST_MEDIA_PORT}`,
          FIXTURES_URL: `http://127.0.0.1:${process.env.TEST_FIXTURE_PORT}`,
          DEV_API_KEY: 'test-key-alice,test-key-bob',
          SIGNING_SECRET: 'test-signing-secret',
          ADMIN_TOKEN: 'test-admin-token',
          // Small enough to test 413 with a modest body.
          MAX_UPLOAD_BYTES: String(12 * 1024 * 1024),
        },
      },
    }),
  ],
  test: {
    name: 'worker',
    include: ['**/*.test.ts'],
    globalSetup: ['./global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
});
