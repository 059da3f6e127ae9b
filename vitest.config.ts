import { defineConfig } from 'vitest/config';

/**
 * Four suites, one command (`npm test`):
 * - unit: pure code in Node;
 * - container: the media service's engines on real ffmpeg and real media, in Node;
 * - worker: the Worker inside workerd with real (emulated) R2, Durable Objects and Queues;
 * - e2e: the real `npm start` stack over HTTP.
 */
export default defineConfig({
  test: {
    silent: 'passed-only',
    // Two cores: suites that each start ffmpeg, models and workerd run one file at a time.
    fileParallelism: false,
    projects: [
      {
        test: {
          name: 'unit',
          // wasm/'s pure modules are tested here; wasm/test/ runs in workerd (the wasm project).
          include: ['test/unit/**/*.test.ts', 'src/**/*.test.ts', 'wasm/**/*.test.ts'],
          exclude: ['wasm/test/**', '**/node_modules/**'],
          environment: 'node',
          // Pure code and small fixtures: two files at once, alone, before the heavy suites (group 1) start.
          fileParallelism: true,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'container',
          sequence: { groupOrder: 1 },
          include: ['test/container/**/*.test.ts', 'containers/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      './test/worker/vitest.config.ts',
      './wasm/test/vitest.config.ts',
      {
        test: {
          name: 'e2e',
          sequence: { groupOrder: 1 },
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 300_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
