/**
 * @module storage/resumable
 * The R2 side of resumable uploads: parts streamed into an R2 multipart upload with their exact
 * length, and the completion that checks the parts form one file of media. The session records
 * live in the tenant's Durable Object; the HTTP routes are `api/uploads.ts`.
 */
import { ApiError } from '../contract/errors.js';
import { newUploadId } from '../shared/ids.js';
import { r2Keys } from '../shared/r2-keys.js';
import type { UploadSession } from '../shared/upload-session.js';
import { BodyTimeoutError, bodyTimeoutAsApiError, PacedReader, type BodyPace } from './body-pace.js';
import { looksLikeText } from './sniff.js';

/** R2 needs equal parts of at least 5 MiB (except the last). */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
export const DEFAULT_RESUMABLE_PART_BYTES = 16 * 1024 * 1024;
/** R2's limit on parts of one multipart upload. */
export const MAX_PARTS = 10_000;

/** Starts an R2 multipart upload for `tenant`; the session to store. */
export async function beginUpload(
  bucket: R2Bucket,
  tenant: string,
  partBytes: number,
  maxBytes: number,
  now: number,
): Promise<UploadSession> {
  const uploadId = newUploadId();
  const key = r2Keys.resumable(tenant, uploadId);
  const upload = await bucket.createMultipartUpload(key);
  return {
    upload_id: uploadId,
    r2_upload_id: upload.uploadId,
    key,
    part_bytes: Math.max(MIN_PART_BYTES, partBytes),
    max_bytes: maxBytes,
    parts: {},
    created_at: now,
    touched_at: now,
    completed: null,
  };
}

/** Pure: part `raw` of `session`, checked (number, place within the limit, declared length). */
export function checkPart(
  session: UploadSession,
  raw: string,
  contentLength: string | undefined,
): { n: number; length: number } {
  if (session.completed) throw new ApiError('upload_conflict', 'the upload is already completed');
  const n = /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= MAX_PARTS))
    throw new ApiError('invalid_request', `part number must be 1–${MAX_PARTS}`, { field: 'n' });
  if ((n - 1) * session.part_bytes >= session.max_bytes) {
    throw new ApiError(
      'payload_too_large',
      `part ${n} starts beyond the limit of ${session.max_bytes} bytes`,
      { limit_bytes: session.max_bytes },
    );
  }
  const length = Number(contentLength ?? NaN);
  if (!Number.isInteger(length) || length <= 0)
    throw new ApiError('invalid_request', 'a part needs a Content-Length header and a non-empty body');
  if (length > session.part_bytes)
    throw new ApiError('payload_too_large', `a part is at most ${session.part_bytes} bytes`, {
      limit_bytes: session.part_bytes,
    });
  return { n, length };
}

/**
 * Streams one part into R2: FixedLengthStream gives R2 the length and fails a short or long body.
 * The body is fed by a read loop that keeps `pace` (408 `body_timeout` below it): on a stall the
 * body is cancelled and the writer aborted, so R2's uploadPart fails and nothing is stored.
 */
export async function storePart(
  bucket: R2Bucket,
  session: UploadSession,
  n: number,
  body: ReadableStream<Uint8Array>,
  length: number,
  pace: BodyPace,
): Promise<{ etag: string; size: number }> {
  const fixed = new FixedLengthStream(length);
  const writer = fixed.writable.getWriter();
  const source = new PacedReader(body.getReader(), pace);
  const feed = async () => {
    try {
      for (;;) {
        const { value, done } = await source.read();
        if (done) break;
        await writer.write(value);
      }
      await writer.close();
    } catch (err) {
      await writer.abort(err).catch(() => {});
      await source.cancel(err);
      throw err;
    }
  };
  const [fed, stored] = await Promise.allSettled([
    feed(),
    bucket.resumeMultipartUpload(session.key, session.r2_upload_id).uploadPart(n, fixed.readable),
  ]);
  if (fed.status === 'rejected' && fed.reason instanceof BodyTimeoutError)
    throw bodyTimeoutAsApiError(fed.reason);
  if (stored.status === 'rejected' || fed.status === 'rejected')
    throw new ApiError(
      'invalid_request',
      'the part could not be stored (body shorter than Content-Length?)',
      {},
      { cause: stored.status === 'rejected' ? stored.reason : (fed as PromiseRejectedResult).reason },
    );
  return { etag: stored.value.etag, size: length };
}

/** Pure: the part numbers in order and the file's size, or 409 when a part is missing or short. */
export function assembledParts(session: UploadSession, upTo?: number): { numbers: number[]; size: number } {
  const numbers = Object.keys(session.parts)
    .map(Number)
    .filter((n) => upTo === undefined || n <= upTo)
    .sort((a, b) => a - b);
  if (numbers.length === 0) throw new ApiError('upload_conflict', 'no part was uploaded');
  const missing = numbers.findIndex((n, i) => n !== i + 1);
  if (missing !== -1)
    throw new ApiError(
      'upload_conflict',
      `part ${missing + 1} is missing${upTo === undefined ? ` (parts uploaded: ${numbers.slice(0, 5).join(', ')}${numbers.length > 5 ? ' …' : ''}); a stray part above the file's last is left out by {"parts": N} in the body of complete` : ''}`,
    );
  if (upTo !== undefined && numbers.length !== upTo)
    throw new ApiError('upload_conflict', `part ${numbers.length + 1} is missing`);
  const short = numbers.slice(0, -1).find((n) => session.parts[n].size !== session.part_bytes);
  if (short !== undefined)
    throw new ApiError(
      'upload_conflict',
      `part ${short} is not ${session.part_bytes} bytes (only the last may be shorter)`,
    );
  return { numbers, size: numbers.reduce((sum, n) => sum + session.parts[n].size, 0) };
}

/** Thrown after the R2 side was discarded: the session must be forgotten too. */
export class UploadRefused extends ApiError {}

/**
 * Completes the R2 multipart upload; refuses (after discarding it) a file over the limit or one
 * that holds text. Returns the file's size.
 */
export async function completeUpload(
  bucket: R2Bucket,
  session: UploadSession,
  upTo?: number,
): Promise<number> {
  const { numbers, size } = assembledParts(session, upTo);
  const upload = bucket.resumeMultipartUpload(session.key, session.r2_upload_id);
  if (size > session.max_bytes) {
    await upload.abort().catch(() => {});
    throw new UploadRefused(
      'payload_too_large',
      `the file is larger than the limit of ${session.max_bytes} bytes`,
      { limit_bytes: session.max_bytes },
    );
  }
  await upload.complete(numbers.map((n) => ({ partNumber: n, etag: session.parts[n].etag })));
  const head = await bucket.get(session.key, { range: { offset: 0, length: 512 } });
  if (looksLikeText(head ? new Uint8Array(await head.arrayBuffer()) : new Uint8Array(0))) {
    await bucket.delete(session.key);
    throw new UploadRefused('unsupported_media_type', 'the uploaded file holds text, not audio or video');
  }
  return size;
}
