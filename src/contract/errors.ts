/**
 * @module contract/errors
 * Every error code the API returns, its HTTP status, and the one error class that carries it.
 * The body of every 4xx/5xx is `{ "error": { code, message, field?, ... }, "request_id": "..." }`.
 */
import { z } from 'zod';

export const ERROR_CODES = {
  unauthorized: 401,
  forbidden: 403,
  invalid_signature: 403,
  link_expired: 403,
  not_found: 404,
  avatar_not_found: 404,
  /** A completed job without captions (no speech recognised, no new speech in a processing job's output, or a job older than captions). */
  no_captions: 404,
  method_not_allowed: 405,
  invalid_request: 400,
  invalid_field: 400,
  missing_file: 400,
  empty_file: 400,
  conflicting_fields: 400,
  invalid_multipart: 400,
  payload_too_large: 413,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  /** An upload body that stalled (less than UPLOAD_IDLE_MIN_BYTES in UPLOAD_IDLE_TIMEOUT_SEC) or ran past UPLOAD_BODY_DEADLINE_SEC; nothing was stored. */
  body_timeout: 408,
  /** The same Idempotency-Key was sent with a different request. */
  idempotency_key_reused: 422,
  /** The same Idempotency-Key and request are still being handled; retry shortly. */
  idempotency_in_progress: 409,
  /** Resumable upload: a part or completion that does not fit the upload's state. */
  upload_conflict: 409,
  /** What the request reads exists only once the job has completed (its captions). */
  job_not_completed: 409,
  /** Requests per minute or concurrent jobs of the key exceeded; see Retry-After. */
  rate_limited: 429,
  internal_error: 500,
  storage_error: 503,
  not_configured: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export const ErrorBody = z
  .object({
    error: z
      .object({
        code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]),
        message: z.string().describe('Human-readable explanation; do not parse it.'),
        field: z.string().optional().describe('The form field at fault, when there is one.'),
        limit_bytes: z.number().int().optional().describe('With payload_too_large: the limit in bytes.'),
        header: z.string().optional().describe('The request header at fault (e.g. Idempotency-Key).'),
        reason: z
          .string()
          .optional()
          .describe(
            'With rate_limited: which budget ran out: `requests_per_minute`, `status_per_minute`, `concurrent_jobs` (per key) or `unauthenticated_per_minute` (per client address). With body_timeout: `idle` (the body stalled) or `deadline`.',
          ),
        limit: z.number().int().optional().describe('With rate_limited: that budget.'),
      })
      .catchall(z.unknown()),
    request_id: z
      .string()
      .describe('Same value as the `X-Request-Id` response header; quote it when reporting a problem.'),
  })
  .describe('The body of every 4xx/5xx response.');
export type ErrorBody = z.infer<typeof ErrorBody>;

/** A failure the client caused or can act on; `onError` turns it into the spec's error body. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: { field?: string; [extra: string]: unknown } = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ApiError';
    this.status = ERROR_CODES[code];
  }
}

/** 400 naming the form field at fault. */
export const invalidField = (field: string, message: string) =>
  new ApiError('invalid_field', message, { field });
