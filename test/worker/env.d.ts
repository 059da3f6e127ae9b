import type { Env } from '../../src/env.js';

declare global {
  namespace Cloudflare {
    interface Env extends import('../../src/env.js').Env {
      FIXTURES_URL: string;
    }
  }
}
export type { Env };
