/**
 * @module api/uploads
 * Resumable uploads (an extension for files beyond one request body, e.g. > 100 MB on
 * Cloudflare Free/Pro): the file goes to R2 part by part, then a job-creating POST names it by
 * `file_id` instead of sending `file`.
 *
 *   POST   /api/uploads                   → 201 { upload_id, part_size, max_bytes, expires_in_sec }
 *   PUT    /api/uploads/{id}/parts/{n}    body = the bytes of part n (1-based; every part but the
 *                                         last exactly part_size) → 200 { part, size }
 *   GET    /api/uploads/{id}              → { upload_id, parts: [{part, size}], completed, size }
 *   POST   /api/uploads/{id}/complete     → 200 { file_id, size }
 *   DELETE /api/uploads/{id}              → 204 (aborts; deletes a completed, unused file)
 *
 * An upload belongs to the key that created it (other keys get 404). One idle for
 * `UPLOAD_ABANDON_AFTER_SEC` (default 24 h) is aborted by the tenant's alarm. A `file_id` is
 * used once: the job takes the file over (and deletes it with its own files at retention).
 */
import { Hono, type Context } from 'hono';
import { tenantStub } from '../auth/limits.js';
import { ApiError } from '../contract/errors.js';
import type { SourceRef } from '../contract/jobs.js';
import type { UploadCompleted, UploadCreated, UploadPart, UploadState } from '../contract/responses.js';
import { numberVar } from '../shared/env.js';
import { base64url } from '../shared/ids.js';
import type { UploadSession } from '../jobs/tenant-object.js';
import type { ParsedForm } from '../storage/form.js';
import { r2Keys } from '../shared/r2-keys.js';
import { looksLikeText } from '../storage/sniff.js';
import { maxUploadBytes } from '../storage/upload-limit.js';
import type { AppEnv } from './middleware.js';

/** R2 needs equal parts of at least 5 MiB (except the last). */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
export const DEFAULT_RESUMABLE_PART_BYTES = 16 * 1024 * 1024;
export const DEFAULT_UPLOAD_ABANDON_SEC = 86_400;
/** R2's limit on parts of one multipart upload. */
export const MAX_PARTS = 10_000;

const UPLOAD_ID = /^upl_[A-Za-z0-9_-]{22}$/;

const partBytes = (c: Context<AppEnv>) => Math.max(MIN_PART_BYTES, numberVar(c.env.UPLOAD_PART_BYTES, DEFAULT_RESUMABLE_PART_BYTES));
const maxBytes = (c: Context<AppEnv>) => maxUploadBytes(c.env);

async function sessionOf(c: Context<AppEnv>, uploadId: string): Promise<UploadSession> {
  const session = UPLOAD_ID.test(uploadId) ? await tenantStub(c.env, c.get('tenant').id).uploadGet(uploadId) : null;
  if (!session) throw new ApiError('not_found', `no upload "${uploadId.slice(0, 40)}" for this API key`);
  return session as UploadSession;
}

const describe = (s: UploadSession): UploadState => ({
  upload_id: s.upload_id,
  part_size: s.part_bytes,
  parts: Object.entries(s.parts)
    .map(([n, p]) => ({ part: Number(n), size: p.size }))
    .sort((a, b) => a.part - b.part),
  completed: s.completed !== null,
  size: s.completed?.size ?? Object.values(s.parts).reduce((sum, p) => sum + p.size, 0),
});

export const uploadRoutes = new Hono<AppEnv>()
  .post('/api/uploads', async (c) => {
    const tenant = c.get('tenant').id;
    const uploadId = `upl_${base64url(crypto.getRandomValues(new Uint8Array(16)))}`;
    const key = r2Keys.resumable(tenant, uploadId);
    const upload = await c.env.MEDIA.createMultipartUpload(key);
    const now = Date.now();
    const session: UploadSession = {
      upload_id: uploadId,
      r2_upload_id: upload.uploadId,
      key,
      part_bytes: partBytes(c),
      max_bytes: maxBytes(c),
      parts: {},
      created_at: now,
      touched_at: now,
      completed: null,
    };
    await tenantStub(c.env, tenant).uploadPut(session);
    const created: UploadCreated = {
      upload_id: uploadId,
      part_size: session.part_bytes,
      max_bytes: session.max_bytes,
      expires_in_sec: numberVar(c.env.UPLOAD_ABANDON_AFTER_SEC, DEFAULT_UPLOAD_ABANDON_SEC),
    };
    return c.json(created, 201);
  })
  .get('/api/uploads/:upload_id', async (c) => c.json(describe(await sessionOf(c, c.req.param('upload_id')))))
  .put('/api/uploads/:upload_id/parts/:n', async (c) => {
    const session = await sessionOf(c, c.req.param('upload_id'));
    if (session.completed) throw new ApiError('upload_conflict', 'the upload is already completed');
    const raw = c.req.param('n');
    const n = /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
    if (!(n >= 1 && n <= MAX_PARTS)) throw new ApiError('invalid_request', `part number must be 1–${MAX_PARTS}`, { field: 'n' });
    if ((n - 1) * session.part_bytes >= session.max_bytes) {
      throw new ApiError('payload_too_large', `part ${n} starts beyond the limit of ${session.max_bytes} bytes`, { limit_bytes: session.max_bytes });
    }
    const length = Number(c.req.header('content-length') ?? NaN);
    if (!Number.isInteger(length) || length <= 0) {
      throw new ApiError('invalid_request', 'a part needs a Content-Length header and a non-empty body');
    }
    if (length > session.part_bytes) {
      throw new ApiError('payload_too_large', `a part is at most ${session.part_bytes} bytes`, { limit_bytes: session.part_bytes });
    }
    if (!c.req.raw.body) throw new ApiError('invalid_request', 'the part has no body');
    // Streamed straight into R2: FixedLengthStream gives R2 the length and fails a short or long body.
    const fixed = new FixedLengthStream(length);
    const piping = c.req.raw.body.pipeTo(fixed.writable).catch(() => {});
    const upload = c.env.MEDIA.resumeMultipartUpload(session.key, session.r2_upload_id);
    let part: R2UploadedPart;
    try {
      part = await upload.uploadPart(n, fixed.readable);
    } catch (err) {
      throw new ApiError('invalid_request', 'the part could not be stored (body shorter than Content-Length?)', {}, { cause: err });
    } finally {
      await piping;
    }
    const updated = await tenantStub(c.env, c.get('tenant').id).uploadRecordPart(session.upload_id, n, { etag: part.etag, size: length });
    if (!updated) throw new ApiError('upload_conflict', 'the upload was completed or aborted meanwhile');
    return c.json({ part: n, size: length } satisfies UploadPart);
  })
  .post('/api/uploads/:upload_id/complete', async (c) => {
    const session = await sessionOf(c, c.req.param('upload_id'));
    if (session.completed) return c.json({ file_id: session.upload_id, size: session.completed.size } satisfies UploadCompleted);
    const numbers = Object.keys(session.parts)
      .map(Number)
      .sort((a, b) => a - b);
    if (numbers.length === 0) throw new ApiError('upload_conflict', 'no part was uploaded');
    const missing = numbers.findIndex((n, i) => n !== i + 1);
    if (missing !== -1) throw new ApiError('upload_conflict', `part ${missing + 1} is missing`);
    const short = numbers.slice(0, -1).find((n) => session.parts[n].size !== session.part_bytes);
    if (short !== undefined) throw new ApiError('upload_conflict', `part ${short} is not ${session.part_bytes} bytes (only the last may be shorter)`);
    const size = numbers.reduce((sum, n) => sum + session.parts[n].size, 0);
    const upload = c.env.MEDIA.resumeMultipartUpload(session.key, session.r2_upload_id);
    if (size > session.max_bytes) {
      await upload.abort().catch(() => {});
      await tenantStub(c.env, c.get('tenant').id).uploadDelete(session.upload_id);
      throw new ApiError('payload_too_large', `the file is larger than the limit of ${session.max_bytes} bytes`, { limit_bytes: session.max_bytes });
    }
    await upload.complete(numbers.map((n) => ({ partNumber: n, etag: session.parts[n].etag })));
    const head = await c.env.MEDIA.get(session.key, { range: { offset: 0, length: 512 } });
    const bytes = head ? new Uint8Array(await head.arrayBuffer()) : new Uint8Array(0);
    if (looksLikeText(bytes)) {
      await c.env.MEDIA.delete(session.key);
      await tenantStub(c.env, c.get('tenant').id).uploadDelete(session.upload_id);
      throw new ApiError('unsupported_media_type', 'the uploaded file holds text, not audio or video');
    }
    await tenantStub(c.env, c.get('tenant').id).uploadPut({ ...session, completed: { size, file_id: session.upload_id }, touched_at: Date.now() });
    return c.json({ file_id: session.upload_id, size } satisfies UploadCompleted);
  })
  .delete('/api/uploads/:upload_id', async (c) => {
    const session = await sessionOf(c, c.req.param('upload_id'));
    if (session.completed) await c.env.MEDIA.delete(session.key);
    else await c.env.MEDIA.resumeMultipartUpload(session.key, session.r2_upload_id).abort().catch(() => {});
    await tenantStub(c.env, c.get('tenant').id).uploadDelete(session.upload_id);
    return c.body(null, 204);
  });

/**
 * The source named by the form's `file_id` field (a completed resumable upload of this key), or
 * null when the field is absent. 400 `conflicting_fields` when `file` is sent too.
 */
export async function resumableSource(c: Context<AppEnv>, form: ParsedForm, fileField: string): Promise<SourceRef | null> {
  const fileId = form.fields.file_id?.trim();
  if (!fileId) return null;
  if (form.files[fileField]) {
    throw new ApiError('conflicting_fields', `send the video either in "${fileField}" or as "file_id", not both`, { field: 'file_id' });
  }
  const session = UPLOAD_ID.test(fileId) ? await tenantStub(c.env, c.get('tenant').id).uploadGet(fileId) : null;
  if (!session) throw new ApiError('not_found', `no upload "${fileId.slice(0, 40)}" for this API key`, { field: 'file_id' });
  if (!session.completed) throw new ApiError('upload_conflict', `upload "${fileId}" is not completed`, { field: 'file_id' });
  return { key: session.key, size: session.completed.size, filename: null, content_type: null };
}

/** The job took the file over: the `file_id` cannot be used again. */
export async function consumeResumable(c: Context<AppEnv>, form: ParsedForm): Promise<void> {
  const fileId = form.fields.file_id?.trim();
  if (fileId) await tenantStub(c.env, c.get('tenant').id).uploadDelete(fileId);
}
