/**
 * @module api/openapi/error-responses
 * The error answers the routes share (`components.responses`): each names the error codes it
 * carries, and its HTTP status is theirs (`contract/errors.ts`), so a route's table entry lists
 * the answers by name and the status follows.
 */
import { ERROR_CODES, type ErrorCode } from '../../contract/errors.js';
import { ERROR_CODE_DOCS } from './errors.js';

type Obj = Record<string, unknown>;

interface ErrorResponseDoc {
  description: string;
  codes: ErrorCode[];
  /** Headers beside X-Request-Id. */
  headers?: Obj;
}

const codesWithStatus = (status: number) =>
  ERROR_CODE_DOCS.filter((e) => e.status === status).map((e) => e.code);

export const ERROR_RESPONSES = {
  BadRequest: {
    description: 'The request is invalid; `error.field` names the field at fault.',
    codes: codesWithStatus(400),
  },
  Unauthorized: { description: 'Missing or invalid credential.', codes: codesWithStatus(401) },
  NotFound: { description: 'Not found.', codes: ['not_found'] },
  // process-video's 404: its avatar, or (like every upload route) its resumable upload.
  AvatarNotFound: {
    description: '`video_id` is not an avatar of this API key, or `file_id` is not an upload of it.',
    codes: ['avatar_not_found', 'not_found'],
  },
  CaptionsNotFound: {
    description: 'No job with this id for this API key, or the completed job has no captions.',
    codes: ['not_found', 'no_captions'],
  },
  JobNotCompleted: { description: 'The job has not completed.', codes: ['job_not_completed'] },
  LinkRejected: {
    description: 'The signed link is not valid for this file, or expired.',
    codes: ['invalid_signature', 'link_expired'],
  },
  PayloadTooLarge: { description: 'A file is larger than MAX_UPLOAD_BYTES.', codes: ['payload_too_large'] },
  BodyTimeout: {
    description:
      'The body stalled (less than UPLOAD_IDLE_MIN_BYTES in UPLOAD_IDLE_TIMEOUT_SEC) or ran past UPLOAD_BODY_DEADLINE_SEC; nothing was stored.',
    codes: ['body_timeout'],
  },
  UnsupportedMediaType: { description: 'A file field holds plain text.', codes: ['unsupported_media_type'] },
  RangeNotSatisfiable: { description: 'The Range is outside the file.', codes: ['range_not_satisfiable'] },
  NotConfigured: {
    description: 'A secret the feature needs is not set.',
    codes: ['not_configured', 'storage_error'],
  },
  RateLimited: {
    description:
      'Too many requests per minute, too many unfinished jobs, resumable uploads or held bytes (`error.reason`: open_uploads, upload_bytes), or held long-polls (held_polls) for this API key; or too many failed authentications from this client address.',
    codes: ['rate_limited'],
    headers: {
      'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
      'RateLimit-Limit': { schema: { type: 'integer' } },
      'RateLimit-Remaining': { schema: { type: 'integer' } },
      'RateLimit-Reset': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
      'RateLimit-Policy': { schema: { type: 'string', example: '120;w=60' } },
    },
  },
  Conflict: {
    description: 'Conflicts with the state of an upload or an idempotent request.',
    codes: ['upload_conflict', 'idempotency_in_progress'],
  },
  IdempotencyKeyReused: {
    description: 'The Idempotency-Key was used with a different request.',
    codes: ['idempotency_key_reused'],
  },
  InternalError: { description: 'Unexpected failure; quote `request_id`.', codes: ['internal_error'] },
} satisfies Record<string, ErrorResponseDoc>;

export type ErrorResponseName = keyof typeof ERROR_RESPONSES;

/** The HTTP status of a named error answer: that of its codes. */
export const errorStatus = (name: ErrorResponseName): number =>
  ERROR_CODES[(ERROR_RESPONSES[name] as ErrorResponseDoc).codes[0]];

/** `components.responses`. */
export function errorResponses(): Record<ErrorResponseName, Obj> {
  const entries = Object.entries(ERROR_RESPONSES as Record<ErrorResponseName, ErrorResponseDoc>).map(
    ([name, { description, codes, headers }]) => [
      name,
      {
        description: `${description} Codes: ${codes.map((c) => `\`${c}\``).join(', ')}.`,
        headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' }, ...headers },
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
      },
    ],
  );
  return Object.fromEntries(entries) as Record<ErrorResponseName, Obj>;
}
