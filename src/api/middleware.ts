/**
 * @module api/middleware
 * Request id, authentication and the one error handler that shapes every error body.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { authenticate, type Tenant } from '../auth/keys.js';
import { clientAddress, effectiveLimits, FailureCounter, tenantStub, unauthLimit } from '../auth/limits.js';
import { ApiError, type ErrorBody, type ErrorCode } from '../contract/errors.js';
import type { Env } from '../shared/env.js';
import type { RateVerdict } from '../jobs/tenant-object.js';
import { base64url } from '../shared/ids.js';

export type AppEnv = { Bindings: Env; Variables: { requestId: string; tenant: Tenant } };

/** Takes a sane incoming `X-Request-Id` or makes one; echoes it on the response. */
export const requestId = (): MiddlewareHandler<AppEnv> =>
  async function requestIdMiddleware(c, next) {
    const incoming = c.req.header('x-request-id');
    const id =
      incoming && /^[A-Za-z0-9._-]{8,128}$/.test(incoming)
        ? incoming
        : `req_${base64url(crypto.getRandomValues(new Uint8Array(12)))}`;
    c.set('requestId', id);
    await next();
    c.res.headers.set('X-Request-Id', id);
  };

/** Failed authentications per client address, in this isolate (see `FailureCounter`). */
const authFailures = new FailureCounter();

/** The IETF draft headers of a verdict (`RateLimit-Reset` in seconds, a 60 s window). */
const rateLimitHeaders = (v: { limit: number; remaining: number; reset_sec: number }) => ({
  'RateLimit-Limit': String(v.limit),
  'RateLimit-Remaining': String(v.remaining),
  'RateLimit-Reset': String(v.reset_sec),
  'RateLimit-Policy': `${v.limit};w=60`,
});

/**
 * The answer to a request whose credential (API key or admin token) failed, or was missing: 401
 * `unauthorized`, counted against the client address; once the address is over
 * `UNAUTH_RATE_LIMIT_PER_MIN` in the current minute, 429 `rate_limited` (reason
 * `unauthenticated_per_minute`) with `Retry-After` until its window ends. Only failures are ever
 * counted or refused: a valid credential is checked first and never pays for other clients' bad
 * ones from the same address (issue #34: one NAT, or every local client of `npm start`).
 * @example if (!tenant) throw refuseUnauthenticated(c, 'the API key is not valid');
 */
export function refuseUnauthenticated(c: Context<AppEnv>, message: string): ApiError {
  const address = clientAddress(c.req.raw.headers, c.env);
  const limit = unauthLimit(c.env);
  const standing = authFailures.check(address, limit);
  if (!standing.allowed) {
    for (const [k, v] of Object.entries(rateLimitHeaders(standing))) c.header(k, v);
    c.header('Retry-After', String(standing.reset_sec));
    return new ApiError(
      'rate_limited',
      `more than ${limit} requests per minute without valid credentials from this address; retry in ${standing.reset_sec} s`,
      { reason: 'unauthenticated_per_minute', limit },
    );
  }
  for (const [k, v] of Object.entries(rateLimitHeaders(authFailures.fail(address, limit)))) c.header(k, v);
  return new ApiError('unauthorized', message);
}

/**
 * `X-API-Key` header or `api_key` query parameter; 401 otherwise, and 429 once the client address
 * has failed too often this minute (see `refuseUnauthenticated`). The key is looked up first, so a
 * valid key is served whatever its address did.
 */
export const requireApiKey = (): MiddlewareHandler<AppEnv> =>
  async function apiKeyMiddleware(c, next) {
    const presented = c.req.header('x-api-key') ?? c.req.query('api_key');
    if (!presented)
      throw refuseUnauthenticated(
        c,
        'an API key is required: send it in the X-API-Key header or the api_key query parameter',
      );
    const tenant = await authenticate(c.env, presented);
    if (!tenant) throw refuseUnauthenticated(c, 'the API key is not valid or has been revoked');
    c.set('tenant', tenant);
    await next();
  };

/** Paths answered by the status endpoint: counted in their own, larger bucket. */
const STATUS_PATH = /^\/(?:api\/)?status\//;

/**
 * Requests per minute per key, in the tenant's Durable Object: `status` polls have their own
 * (higher) limit so polling stays cheap, everything else shares `api`. Headers per the IETF
 * draft (draft-ietf-httpapi-ratelimit-headers): `RateLimit-Limit`, `RateLimit-Remaining`,
 * `RateLimit-Reset` (seconds) and `RateLimit-Policy`; 429 `rate_limited` adds `Retry-After`.
 * Runs after `requireApiKey`.
 */
export const rateLimit = (): MiddlewareHandler<AppEnv> =>
  async function rateLimitMiddleware(c, next) {
    const tenant = c.get('tenant');
    const limits = effectiveLimits(c.env, tenant);
    // HEAD of a status is a poll too (issue #12): it is charged to the status bucket.
    const bucket =
      (c.req.method === 'GET' || c.req.method === 'HEAD') && STATUS_PATH.test(c.req.path) ? 'status' : 'api';
    const limit = bucket === 'status' ? limits.status_per_minute : limits.requests_per_minute;
    let verdict: RateVerdict;
    try {
      verdict = (await tenantStub(c.env, tenant.id).hit(bucket, limit)) as RateVerdict;
    } catch (err) {
      // Fail open: a counter that cannot be reached must not take the API down with it.
      console.error(
        JSON.stringify({
          level: 'warn',
          request_id: c.get('requestId'),
          action: 'rate_limit',
          error: String(err),
        }),
      );
      return next();
    }
    const headers = rateLimitHeaders(verdict);
    if (!verdict.allowed) {
      for (const [k, v] of Object.entries(headers)) c.header(k, v);
      c.header('Retry-After', String(verdict.reset_sec));
      throw new ApiError(
        'rate_limited',
        `more than ${verdict.limit} ${bucket === 'status' ? 'status requests' : 'requests'} per minute for this API key; retry in ${verdict.reset_sec} s`,
        {
          reason: bucket === 'status' ? 'status_per_minute' : 'requests_per_minute',
          limit: verdict.limit,
        },
      );
    }
    await next();
    for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
  };

/** Headers every response carries; API answers are private and never cached. */
const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
} as const;
const PRIVATE_PATH = /^\/(?:api|status|admin)(?:\/|$)/;

export const securityHeaders = (): MiddlewareHandler<AppEnv> =>
  async function securityHeadersMiddleware(c, next) {
    await next();
    const headers = c.res.headers;
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) if (!headers.has(k)) headers.set(k, v);
    if (PRIVATE_PATH.test(c.req.path)) headers.set('Cache-Control', 'private, no-store');
  };

export function errorBody(
  c: Context<AppEnv>,
  code: ErrorCode,
  message: string,
  details: Record<string, unknown> = {},
): ErrorBody {
  return { error: { code, message, ...details }, request_id: c.get('requestId') ?? 'unknown' };
}

/** Maps every thrown error to the spec's body; 5xx details stay in the log, not the response. */
export function onError(err: Error, c: Context<AppEnv>): Response {
  if (err instanceof ApiError) {
    return c.json(errorBody(c, err.code, err.message, err.details), err.status as 400);
  }
  if (err instanceof HTTPException) {
    const status = err.status;
    const code: ErrorCode =
      status === 413
        ? 'payload_too_large'
        : status === 401
          ? 'unauthorized'
          : status === 404
            ? 'not_found'
            : 'invalid_request';
    return c.json(errorBody(c, code, err.message || 'invalid request'), status);
  }
  console.error(
    JSON.stringify({
      level: 'error',
      request_id: c.get('requestId'),
      path: c.req.path,
      error: String(err?.stack ?? err),
    }),
  );
  return c.json(
    errorBody(c, 'internal_error', 'an internal error occurred; quote the request_id when reporting it'),
    500,
  );
}

export function notFound(c: Context<AppEnv>): Response {
  return c.json(errorBody(c, 'not_found', `no route for ${c.req.method} ${c.req.path}`), 404);
}

/**
 * 404 for a path no route has; 405 `method_not_allowed` with `Allow` (RFC 9110 §15.5.6) for a path
 * that exists under other methods.
 * @example app.notFound(notFoundOrNotAllowed(() => app.routes));
 */
export function notFoundOrNotAllowed(routes: () => ReadonlyArray<{ method: string; path: string }>) {
  let table: Array<{ method: string; pattern: RegExp }> | null = null;
  return function notFoundOrNotAllowedHandler(c: Context<AppEnv>): Response {
    table ??= routes()
      .filter((r) => r.method !== 'ALL')
      .map((r) => ({ method: r.method, pattern: routePattern(r.path) }));
    const allow = allowedMethods(table, c.req.path);
    if (allow.length === 0) return notFound(c);
    c.header('Allow', allow.join(', '));
    return c.json(
      errorBody(
        c,
        'method_not_allowed',
        `${c.req.method} is not supported on ${c.req.path}; use ${allow.join(', ')}`,
      ),
      405,
    );
  };
}

/** Pure: a Hono route path (`/api/status/:id`, `/files/*`) as an anchored pattern (strict, as the router: no trailing slash). */
export const routePattern = (path: string): RegExp =>
  new RegExp(
    `^${path
      .split('/')
      .map((seg) =>
        seg === '*' ? '.*' : seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('/')}$`,
  );

/** Pure: the methods some route accepts on `path` (GET implies HEAD), sorted. */
export function allowedMethods(
  table: ReadonlyArray<{ method: string; pattern: RegExp }>,
  path: string,
): string[] {
  const methods = new Set(table.filter((r) => r.pattern.test(path)).map((r) => r.method));
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

/** Logs one line per request, never the api_key query parameter nor any header value. */
export const accessLog = (): MiddlewareHandler<AppEnv> =>
  async function accessLogMiddleware(c, next) {
    const started = Date.now();
    await next();
    const url = new URL(c.req.url);
    url.searchParams.delete('api_key');
    url.searchParams.delete('token');
    console.log(
      JSON.stringify({
        request_id: c.get('requestId'),
        method: c.req.method,
        path: url.pathname + url.search,
        status: c.res.status,
        ms: Date.now() - started,
      }),
    );
  };
