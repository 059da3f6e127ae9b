/**
 * @module auth/limits
 * The limits that apply to a key: its record's `limits`, else the `[vars]` defaults.
 * Counting happens in the tenant's Durable Object (`jobs/tenant-object.ts`).
 */
import type { Env } from '../env.js';
import { numberVar } from '../env.js';
import type { TenantObject } from '../jobs/tenant-object.js';
import type { Tenant } from './keys.js';

export const DEFAULT_REQUESTS_PER_MIN = 120;
export const DEFAULT_STATUS_PER_MIN = 600;
export const DEFAULT_CONCURRENT_JOBS = 5;
export const DEFAULT_IDEMPOTENCY_TTL_SEC = 86_400;

export interface EffectiveLimits {
  requests_per_minute: number;
  status_per_minute: number;
  concurrent_jobs: number;
}

export function effectiveLimits(env: Env, tenant: Tenant): EffectiveLimits {
  const positive = (v: number, fallback: number) => (v > 0 ? Math.floor(v) : fallback);
  return {
    requests_per_minute:
      tenant.limits.requests_per_minute ?? positive(numberVar(env.RATE_LIMIT_PER_MIN, DEFAULT_REQUESTS_PER_MIN), DEFAULT_REQUESTS_PER_MIN),
    status_per_minute:
      tenant.limits.status_per_minute ?? positive(numberVar(env.STATUS_RATE_LIMIT_PER_MIN, DEFAULT_STATUS_PER_MIN), DEFAULT_STATUS_PER_MIN),
    concurrent_jobs:
      tenant.limits.concurrent_jobs ?? positive(numberVar(env.MAX_CONCURRENT_JOBS, DEFAULT_CONCURRENT_JOBS), DEFAULT_CONCURRENT_JOBS),
  };
}

export const tenantStub = (env: Pick<Env, 'TENANT'>, tenantId: string): DurableObjectStub<TenantObject> =>
  env.TENANT.get(env.TENANT.idFromName(tenantId));

export const idempotencyTtlMs = (env: Env) => numberVar(env.IDEMPOTENCY_TTL_SEC, DEFAULT_IDEMPOTENCY_TTL_SEC) * 1000;
