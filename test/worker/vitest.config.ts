import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: '../../wrangler.toml' },
      miniflare: {
        // Tests need the consumer to pick messages up quickly.
        queueConsumers: { 'video-api-jobs': { maxBatchTimeout: 0.05 } },
        bindings: {
          // The real media service and fixture server, started by global-setup.ts.
          CONTAINER_URL: 'http://127.0.0.1:18788',
          FIXTURES_URL: 'http://127.0.0.1:18790',
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
