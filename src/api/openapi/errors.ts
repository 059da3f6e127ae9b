/**
 * @module api/openapi/errors
 * When each error code of `ERROR_CODES` occurs: the text of the error table in the docs.
 */
import { ERROR_CODES, type ErrorCode } from '../../contract/errors.js';

const WHEN: Record<ErrorCode, string> = {
  unauthorized:
    'No API key (header `X-API-Key` or query `api_key`), or the key is unknown or revoked; on /admin a missing or wrong bearer token (counted against the client address like a wrong key).',
  forbidden: 'Reserved: the key may not perform this action.',
  invalid_signature:
    'A /files link whose token does not match the file and expiry (tampered or truncated link).',
  link_expired:
    'A /files link older than its expiry (24 h by default): poll the status endpoint for a fresh link.',
  not_found:
    'No such route, a downloaded file that no longer exists, an unknown admin key id, upload id or `file_id`, or (DELETE /api/jobs, its captions and webhooks) a job this key does not have. (Unknown job ids are not an error: the status endpoint answers 200 with status `not_found`.)',
  avatar_not_found:
    'process-video `video_id` is not an avatar registered by this API key (`field`: video_id).',
  no_captions:
    'Captions of a completed job that has none: no speech was recognised, a processing job whose output has no new speech, or a job that completed before caption files existed.',
  method_not_allowed:
    'The path exists but not with this method (e.g. GET /api/analyze-video); the `Allow` header lists the methods it takes.',
  invalid_request:
    'A malformed request: an invalid `Idempotency-Key`, a resumable part without Content-Length or with a bad part number, or a body the framework rejected.',
  invalid_field:
    'A form field is invalid (`field` names it): a boolean that is not `true`/`false`, a value outside its choices, text too long (also beyond the 64 KiB of any text field), an unknown field, a field sent twice, text where a file belongs, `audio` without voice_generator 2, voice_generator 2 without `audio`.',
  missing_file: 'No `file` (analyze, register), or neither `file` nor `video_id` (process) (`field`: file).',
  empty_file: 'A file field with zero bytes (`field` names it).',
  conflicting_fields: 'Both `file` and `file_id` were sent (`field`: file_id).',
  invalid_multipart: 'The body is not multipart/form-data with a boundary, or is truncated/malformed.',
  payload_too_large:
    'A file (or the declared body) is larger than MAX_UPLOAD_BYTES (default 2 GiB); `limit_bytes` gives the limit.',
  unsupported_media_type:
    'A file field holds plain text (UTF-8 or UTF-16, JSON or HTML included), not audio or video (`field` names it). Other undecodable bytes are accepted and fail the job later with `error_message`.',
  body_timeout:
    'An upload body (a job form or a resumable part) that sent less than UPLOAD_IDLE_MIN_BYTES (16 KiB) in UPLOAD_IDLE_TIMEOUT_SEC (30 s) of waiting for it (`reason`: idle), or that took longer than UPLOAD_BODY_DEADLINE_SEC (3600 s) (`reason`: deadline). Nothing of it was stored and no job was created: send it again.',
  range_not_satisfiable: 'A /files `Range` outside the file; `Content-Range: bytes */{size}` tells the size.',
  idempotency_key_reused:
    'The same `Idempotency-Key` was sent with a different request (other fields or file).',
  idempotency_in_progress:
    'A request with the same `Idempotency-Key` is still being handled; retry after `Retry-After`.',
  upload_conflict:
    'Resumable upload: a part after completion, completing with a missing or short part, or a `file_id` whose upload is not completed.',
  job_not_completed:
    'The job is still pending or processing, or failed: its captions exist only once it has completed; poll the status endpoint.',
  rate_limited:
    'More requests per minute than the key allows (status polls have their own, larger budget), or all its concurrent-job slots are taken, or (before any key is checked) more than UNAUTH_RATE_LIMIT_PER_MIN (default 60) requests per minute from the client address failed authentication; wait `Retry-After` seconds. `RateLimit-*` headers show the budget; `reason` names it.',
  internal_error: 'An unexpected failure; the details are in the server log under the `request_id`.',
  storage_error: 'Storage was unavailable; retry later.',
  not_configured:
    'A feature needs a secret that is not set: SIGNING_SECRET (download links) or ADMIN_TOKEN (admin API).',
};

/** Every code, its HTTP status and when it occurs, in `ERROR_CODES` order. */
export const ERROR_CODE_DOCS = (Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => ({
  code,
  status: ERROR_CODES[code] as number,
  when: WHEN[code],
}));
