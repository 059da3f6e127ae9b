/**
 * The `wasm` test project: runs wasm/**\/*.test.ts inside workerd with the test Worker of
 * `wrangler.toml` beside this file (self-contained; the root wrangler.toml is not read).
 * Run: `npx vitest run --config wasm/test/vitest.config.ts`.
 */
import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';
import { mediaService } from './media-service.js';

export default defineProject({
  root: fileURLToPath(new URL('..', import.meta.url)),
  // Keep vite's cache in the repo's node_modules, not in a wasm/node_modules of its own.
  cacheDir: fileURLToPath(new URL('../../node_modules/.vite/wasm', import.meta.url)),
  plugins: [
    cloudflareTest({
      wrangler: { configPath: fileURLToPath(new URL('./wrangler.toml', import.meta.url)) },
      miniflare: {
        // Test-only: clips, native ffmpeg references and a real clock come from Node.
        serviceBindings: { MEDIA: mediaService },
        // bench.test.ts runs only when asked (it generates a 32 MB video).
        bindings: { WASM_BENCH: process.env.WASM_BENCH ?? '' },
      },
    }),
  ],
  test: {
    name: 'wasm',
    // After the unit project (group 0), one file at a time with the other heavy suites.
    sequence: { groupOrder: 1 },
    include: ['**/*.test.ts'],
    // The first test of a file pays for compiling ~46 MB of WebAssembly.
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
