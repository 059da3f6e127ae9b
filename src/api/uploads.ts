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
 *   POST   /api/uploads/{id}/complete     → 200 { file_id, size }; optional body {"parts": N}: the
 *                                         file is parts 1–N, any part above N is left out
 *   DELETE /api/uploads/{id}              → 204 (aborts; deletes a completed, unused file)
 *
 * An upload belongs to the key that created it (other keys get 404). A key holds at most
 * UPLOAD_MAX_SESSIONS uploads (default 10) and UPLOAD_MAX_HELD_BYTES in their parts (default twice
 * MAX_UPLOAD_BYTES): beyond, 429 `rate_limited` with reason `open_uploads` or `upload_bytes`. One idle for
 * `UPLOAD_ABANDON_AFTER_SEC` (default 24 h) is aborted by the tenant's alarm. A `file_id` is
 * used once: the job takes the file over (and deletes it with its own files at retention).
 */
import { Hono, type Context } from 'hono';
import { tenantStub } from '../auth/limits.js';
import { ApiError } from '../contract/errors.js';
import type { SourceRef } from '../contract/jobs.js';
import type { UploadCompleted, UploadCreated, UploadPart, UploadState } from '../contract/responses.js';
import { numberVar } from '../shared/env.js';
import { isUploadId } from '../shared/ids.js';
import { DEFAULT_UPLOAD_ABANDON_SEC, discardUpload, type UploadSession } from '../shared/upload-session.js';
import { bodyPaceOf } from '../storage/body-pace.js';
import type { ParsedForm } from '../storage/form.js';
import {
  beginUpload,
  checkPart,
  completeUpload,
  DEFAULT_RESUMABLE_PART_BYTES,
  MAX_PARTS,
  storePart,
  UploadRefused,
} from '../storage/resumable.js';
import { maxUploadBytes } from '../storage/upload-limit.js';
import type { AppEnv } from './middleware.js';

const sessions = (c: Context<AppEnv>) => tenantStub(c.env, c.get('tenant').id);

async function sessionOf(c: Context<AppEnv>, uploadId: string): Promise<UploadSession> {
  const session = isUploadId(uploadId) ? await sessions(c).uploadGet(uploadId) : null;
  if (!session) throw new ApiError('not_found', `no upload "${uploadId.slice(0, 40)}" for this API key`);
  return session as UploadSession;
}

/**
 * Per-key bounds of the resumable uploads (issue #34): sessions held at once (open, or completed and
 * not yet used by a job) and the bytes their parts hold. Parts stored in parallel are checked
 * against the total before each is stored, so the total can pass the bound by the parts in flight.
 */
export function uploadQuota(env: AppEnv['Bindings']): { maxSessions: number; maxBytes: number } {
  const positive = (v: number, fallback: number) => (v > 0 ? Math.floor(v) : fallback);
  return {
    maxSessions: positive(
      numberVar(env.UPLOAD_MAX_SESSIONS, DEFAULT_UPLOAD_MAX_SESSIONS),
      DEFAULT_UPLOAD_MAX_SESSIONS,
    ),
    maxBytes: positive(
      numberVar(env.UPLOAD_MAX_HELD_BYTES, 2 * maxUploadBytes(env)),
      2 * maxUploadBytes(env),
    ),
  };
}
export const DEFAULT_UPLOAD_MAX_SESSIONS = 10;

/**
 * The optional `{"parts": N}` body of `complete`: the file is parts 1–N, and any part above N (a
 * stray upload) is left out, so it can never make the upload uncompletable (issue #34).
 */
async function completeParts(c: Context<AppEnv>): Promise<number | undefined> {
  const text = (await c.req.text()).trim();
  if (!text) return undefined;
  let parts: unknown;
  try {
    parts = (JSON.parse(text) as { parts?: unknown }).parts;
  } catch {
    parts = undefined;
  }
  if (!(Number.isInteger(parts) && (parts as number) >= 1 && (parts as number) <= MAX_PARTS))
    throw new ApiError('invalid_field', `the body is optional; when sent it is {"parts": 1–${MAX_PARTS}}`, {
      field: 'parts',
    });
  return parts as number;
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
    const partBytes = numberVar(c.env.UPLOAD_PART_BYTES, DEFAULT_RESUMABLE_PART_BYTES);
    const session = await beginUpload(
      c.env.MEDIA,
      c.get('tenant').id,
      partBytes,
      maxUploadBytes(c.env),
      Date.now(),
    );
    const { maxSessions } = uploadQuota(c.env);
    if (!(await sessions(c).uploadOpen(session, maxSessions))) {
      await discardUpload(c.env.MEDIA, session);
      throw new ApiError(
        'rate_limited',
        `this API key already holds ${maxSessions} resumable uploads (open, or completed and not yet used): complete and use, or delete, one first`,
        { reason: 'open_uploads', limit: maxSessions },
      );
    }
    const created: UploadCreated = {
      upload_id: session.upload_id,
      part_size: session.part_bytes,
      max_bytes: session.max_bytes,
      expires_in_sec: numberVar(c.env.UPLOAD_ABANDON_AFTER_SEC, DEFAULT_UPLOAD_ABANDON_SEC),
    };
    return c.json(created, 201);
  })
  .get('/api/uploads/:upload_id', async (c) => c.json(describe(await sessionOf(c, c.req.param('upload_id')))))
  .put('/api/uploads/:upload_id/parts/:n', async (c) => {
    const session = await sessionOf(c, c.req.param('upload_id'));
    const { n, length } = checkPart(session, c.req.param('n'), c.req.header('content-length'));
    if (!c.req.raw.body) throw new ApiError('invalid_request', 'the part has no body');
    const { maxBytes } = uploadQuota(c.env);
    const usage = await sessions(c).uploadUsage();
    const replaced = session.parts[String(n)]?.size ?? 0;
    if (usage.bytes - replaced + length > maxBytes)
      throw new ApiError(
        'rate_limited',
        `this API key's resumable uploads would hold more than ${maxBytes} bytes (${usage.bytes} now): complete and use, or delete, an upload first`,
        { reason: 'upload_bytes', limit: maxBytes },
      );
    const part = await storePart(c.env.MEDIA, session, n, c.req.raw.body, length, bodyPaceOf(c.env));
    const updated = await sessions(c).uploadRecordPart(session.upload_id, n, part);
    if (!updated) throw new ApiError('upload_conflict', 'the upload was completed or aborted meanwhile');
    return c.json({ part: n, size: length } satisfies UploadPart);
  })
  .post('/api/uploads/:upload_id/complete', async (c) => {
    const session = await sessionOf(c, c.req.param('upload_id'));
    if (session.completed)
      return c.json({ file_id: session.upload_id, size: session.completed.size } satisfies UploadCompleted);
    const parts = await completeParts(c);
    let size: number;
    try {
      size = await completeUpload(c.env.MEDIA, session, parts);
    } catch (err) {
      if (err instanceof UploadRefused) await sessions(c).uploadDelete(session.upload_id);
      throw err;
    }
    await sessions(c).uploadPut({
      ...session,
      completed: { size, file_id: session.upload_id },
      touched_at: Date.now(),
    });
    return c.json({ file_id: session.upload_id, size } satisfies UploadCompleted);
  })
  .delete('/api/uploads/:upload_id', async (c) => {
    const session = await sessionOf(c, c.req.param('upload_id'));
    await discardUpload(c.env.MEDIA, session);
    await sessions(c).uploadDelete(session.upload_id);
    return c.body(null, 204);
  });

/**
 * The source named by the form's `file_id` field (a completed resumable upload of this key), or
 * null when the field is absent. 400 `conflicting_fields` when `file` is sent too.
 */
export async function resumableSource(
  c: Context<AppEnv>,
  form: ParsedForm,
  fileField: string,
): Promise<SourceRef | null> {
  const fileId = form.fields.file_id?.trim();
  if (!fileId) return null;
  if (form.files[fileField]) {
    throw new ApiError(
      'conflicting_fields',
      `send the video either in "${fileField}" or as "file_id", not both`,
      { field: 'file_id' },
    );
  }
  const session = isUploadId(fileId) ? await sessions(c).uploadGet(fileId) : null;
  if (!session)
    throw new ApiError('not_found', `no upload "${fileId.slice(0, 40)}" for this API key`, {
      field: 'file_id',
    });
  if (!session.completed)
    throw new ApiError('upload_conflict', `upload "${fileId}" is not completed`, { field: 'file_id' });
  return { key: session.key, size: session.completed.size, filename: null, content_type: null };
}

/** The job took the file over: the `file_id` cannot be used again. */
export async function consumeResumable(c: Context<AppEnv>, form: ParsedForm): Promise<void> {
  const fileId = form.fields.file_id?.trim();
  if (fileId) await sessions(c).uploadDelete(fileId);
}
