/**
 * @module shared/env
 * The Worker's bindings and variables. `WorkerBindings` is generated from wrangler.toml by
 * `npm run types` (`src/worker-env.d.ts`, never edited by hand; `npm test` fails when it is stale),
 * so a variable added to wrangler.toml is typed here at once. This module imports nothing of ours:
 * every layer of the Worker may use it without pulling in the classes the bindings point to.
 */

/**
 * Everything the Worker's `env` holds: the generated bindings, plus the secrets (`.dev.vars` locally,
 * `wrangler secret put` in production), which wrangler.toml does not list and may be unset.
 */
export interface Env extends WorkerBindings {
  /** Secret: HMAC key of download links. Unset: download links are not configured. */
  SIGNING_SECRET?: string;
  /** Secret: bearer token of the /admin routes. Unset: the admin API is disabled. */
  ADMIN_TOKEN?: string;
}

/** A numeric variable with a default, tolerant of empty strings. */
export function numberVar(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}
