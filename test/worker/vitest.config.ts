import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: '../../wrangler.toml' },
      miniflare: {
        // Tests need the consumer to pick messages up quickly.
        queueConsumers: { "video-api-jobs": { maxBatchTimeout: 0.05 } },
      },
    }),
  ],
  test: { name: 'worker', include: ['**/*.test.ts'], testTimeout: 60_000 },
});
