/**
 * @module client/errors
 * Typed failures of the client: HTTP errors carry the API's error body; job failures and
 * waiting too long are their own classes so callers can tell them apart.
 */

/** Fields of the API's error body (`{ error: { code, message, field? }, request_id }`). */
export interface ApiErrorFields {
  code: string;
  status: number;
  message: string;
  requestId: string | null;
  field: string | null;
  details?: Record<string, unknown>;
  /** From `Retry-After` (429, 409, 503), seconds. */
  retryAfterSec?: number | null;
}

/**
 * An HTTP 4xx/5xx answer (or no answer: `status` 0, code `network_error`).
 * @example
 * try { await client.analyzeVideo('clip.mp4'); }
 * catch (e) { if (e instanceof VideoApiError && e.code === 'payload_too_large') ... }
 */
export class VideoApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly requestId: string | null;
  readonly field: string | null;
  readonly details: Record<string, unknown>;
  /** Seconds the service asked to wait (`Retry-After`), when it said. */
  readonly retryAfterSec: number | null;
  constructor(fields: ApiErrorFields, options?: { cause?: unknown }) {
    super(fields.message, options);
    this.name = 'VideoApiError';
    this.code = fields.code;
    this.status = fields.status;
    this.requestId = fields.requestId;
    this.field = fields.field;
    this.details = fields.details ?? {};
    this.retryAfterSec = fields.retryAfterSec ?? null;
  }

  /** Worth retrying: network failures, 408 (a body that stalled: nothing was stored), 429 and 5xx other than "not configured". */
  get retryable(): boolean {
    return (
      this.status === 0 ||
      this.status === 408 ||
      this.status === 429 ||
      (this.status >= 500 && this.code !== 'not_configured')
    );
  }
}

/**
 * A job that ended `failed`, or an id the service does not know (`not_found`).
 * @example
 * catch (e) { if (e instanceof VideoJobError) console.error(e.videoId, e.message); }
 */
export class VideoJobError extends Error {
  constructor(
    readonly videoId: string,
    readonly status: 'failed' | 'not_found',
    message: string,
  ) {
    super(message);
    this.name = 'VideoJobError';
  }
}

/** `waitForCompletion` gave up after `timeoutMs`; the job may still finish. */
export class VideoWaitTimeoutError extends Error {
  constructor(
    readonly videoId: string,
    readonly lastStatus: string,
    readonly lastProgress: number,
  ) {
    super(`job ${videoId} still ${lastStatus} (${lastProgress}%) when the wait timed out`);
    this.name = 'VideoWaitTimeoutError';
  }
}

/** Maps a non-2xx response to a `VideoApiError`, reading the body when it is the API's shape. */
export async function errorFromResponse(res: Response): Promise<VideoApiError> {
  const text = await res.text().catch(() => '');
  let body: {
    error?: { code?: unknown; message?: unknown; field?: unknown; [k: string]: unknown };
    request_id?: unknown;
  } = {};
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: a proxy or the platform answered */
  }
  const { code, message, field, ...details } = body.error ?? {};
  return new VideoApiError({
    code: typeof code === 'string' ? code : `http_${res.status}`,
    status: res.status,
    message:
      typeof message === 'string'
        ? message
        : `HTTP ${res.status} ${res.statusText}${text ? `: ${text.slice(0, 200)}` : ''}`,
    requestId: typeof body.request_id === 'string' ? body.request_id : res.headers.get('x-request-id'),
    field: typeof field === 'string' ? field : null,
    details,
    retryAfterSec: /^\d+$/.test(res.headers.get('retry-after') ?? '')
      ? Number(res.headers.get('retry-after'))
      : null,
  });
}
