import type { Env as AppEnv } from '../../src/shared/env.js';

// `env` from cloudflare:test is Cloudflare.Env: the Worker's bindings plus the test-only ones.
declare global {
  namespace Cloudflare {
    interface Env extends AppEnv {
      FIXTURES_URL: string;
    }
  }
}
export type { AppEnv as Env };
