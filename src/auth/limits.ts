/**
 * @module auth/limits
 * The limits that apply to a key: its record's `limits`, else the `[vars]` defaults.
 * Counting happens in the tenant's Durable Object (`jobs/tenant-object.ts`).
 */
import type { Env } from '../shared/env.js';
import { numberVar } from '../shared/env.js';
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
      tenant.limits.requests_per_minute ??
      positive(numberVar(env.RATE_LIMIT_PER_MIN, DEFAULT_REQUESTS_PER_MIN), DEFAULT_REQUESTS_PER_MIN),
    status_per_minute:
      tenant.limits.status_per_minute ??
      positive(numberVar(env.STATUS_RATE_LIMIT_PER_MIN, DEFAULT_STATUS_PER_MIN), DEFAULT_STATUS_PER_MIN),
    concurrent_jobs:
      tenant.limits.concurrent_jobs ??
      positive(numberVar(env.MAX_CONCURRENT_JOBS, DEFAULT_CONCURRENT_JOBS), DEFAULT_CONCURRENT_JOBS),
  };
}

export const tenantStub = (env: Pick<Env, 'TENANT'>, tenantId: string): DurableObjectStub<TenantObject> =>
  env.TENANT.get(env.TENANT.idFromName(tenantId));

export const idempotencyTtlMs = (env: Env) =>
  numberVar(env.IDEMPOTENCY_TTL_SEC, DEFAULT_IDEMPOTENCY_TTL_SEC) * 1000;

/** Failed authentications per minute from one client address before it is refused. */
export const DEFAULT_UNAUTH_PER_MIN = 60;
/** The unauthenticated window; fixed, as for the per-key limits (`RateLimit-Policy: n;w=60`). */
export const UNAUTH_WINDOW_MS = 60_000;
/** Addresses remembered per isolate; beyond it the oldest entry is forgotten (bounded memory). */
export const MAX_TRACKED_ADDRESSES = 10_000;

export interface UnauthLimitEnv {
  /** Failed authentications per minute per client address. Default 60. */
  UNAUTH_RATE_LIMIT_PER_MIN?: string;
}

export const unauthLimit = (env: UnauthLimitEnv) => {
  const n = Math.floor(numberVar(env.UNAUTH_RATE_LIMIT_PER_MIN, DEFAULT_UNAUTH_PER_MIN));
  return n > 0 ? n : DEFAULT_UNAUTH_PER_MIN;
};

/** The counter's answer, shaped like the tenant's `RateVerdict` so the same headers apply. */
export interface FailureVerdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  reset_sec: number;
}

/** Which header tells the client's address (`CLIENT_ADDRESS_HEADER`). */
export interface ClientAddressEnv {
  /**
   * `CF-Connecting-IP` (default, production): set by Cloudflare's edge, which replaces any value a
   * client sent, and the only header trusted there (X-Forwarded-For is the client's to write).
   * `X-Forwarded-For`: only behind a reverse proxy of the operator's that appends the address it
   * saw (the last hop is trusted; earlier hops are the client's), else any client could rotate it
   * and lift the limit (issue #34).
   * `none` (set by `npm start`): no header is trusted and every client shares one address. The dev
   * server keeps a CF-Connecting-IP its client sent (it sets its own only when there is none), and
   * listens on 127.0.0.1, so every socket address is the same anyway (docs/security.md).
   */
  CLIENT_ADDRESS_HEADER?: string;
}

/**
 * The client's address for counting (see `ClientAddressEnv`). An IPv6 address counts as its /64,
 * the block one subscriber usually holds. No address (or `none`): one shared `local` bucket.
 * @example clientAddress(headers, env) // → '198.51.100.7' or '2001:db8:7:1::/64'
 */
export function clientAddress(headers: Headers, env: ClientAddressEnv = {}): string {
  const setting = env.CLIENT_ADDRESS_HEADER?.trim() ?? '';
  if (/^none$/i.test(setting)) return 'local';
  const edge = headers.get('cf-connecting-ip')?.trim();
  const forwarded = /^x-forwarded-for$/i.test(setting)
    ? headers
        .get('x-forwarded-for')
        ?.split(',')
        .map((h) => h.trim())
        .filter(Boolean)
        .at(-1)
    : undefined;
  const ip = forwarded || edge || 'local';
  return ip.includes(':') ? ipv6Prefix64(ip) : ip;
}

function ipv6Prefix64(ip: string): string {
  const [head, tail] = ip.toLowerCase().split('::', 2);
  const left = head ? head.split(':') : [];
  const right = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * Counts failed authentications per client address in fixed windows, in this isolate's memory:
 * no storage and no Durable Object per request, so a flood of bad keys costs one map lookup each.
 * Each isolate counts on its own (a flood spread over many isolates gets more through); the
 * Workers Rate Limiting binding or a WAF rule is the edge-wide complement in production.
 * @example
 * const counter = new FailureCounter();
 * if (!counter.check(ip, 60).allowed) refuse();
 */
export class FailureCounter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly maxTracked = MAX_TRACKED_ADDRESSES) {}

  /** The address's standing, without counting. */
  check(address: string, limit: number, now = Date.now()): FailureVerdict {
    return this.verdict(this.current(address, now), limit, now);
  }

  /** Counts one failure for the address and returns its standing afterwards. */
  fail(address: string, limit: number, now = Date.now()): FailureVerdict {
    let w = this.current(address, now);
    if (!w) {
      if (this.windows.size >= this.maxTracked) this.evict(now);
      w = { start: now, count: 0 };
      this.windows.set(address, w);
    }
    w.count++;
    return this.verdict(w, limit, now);
  }

  private current(address: string, now: number) {
    const w = this.windows.get(address);
    if (w && now - w.start >= UNAUTH_WINDOW_MS) {
      this.windows.delete(address);
      return undefined;
    }
    return w;
  }

  /** Drops ended windows; if none ended, the oldest address (insertion order). */
  private evict(now: number) {
    for (const [address, w] of this.windows)
      if (now - w.start >= UNAUTH_WINDOW_MS) this.windows.delete(address);
    if (this.windows.size >= this.maxTracked) this.windows.delete(this.windows.keys().next().value!);
  }

  private verdict(
    w: { start: number; count: number } | undefined,
    limit: number,
    now: number,
  ): FailureVerdict {
    const count = w?.count ?? 0;
    const reset_sec = w
      ? Math.max(1, Math.ceil((w.start + UNAUTH_WINDOW_MS - now) / 1000))
      : Math.ceil(UNAUTH_WINDOW_MS / 1000);
    return { allowed: count < limit, limit, remaining: Math.max(0, limit - count), reset_sec };
  }
}
