/**
 * @module jobs/tenant/upload-sessions
 * Resumable uploads bound to one tenant (an R2 multipart upload each), in its storage under
 * `upload:<upload_id>`; sessions untouched for `UPLOAD_ABANDON_AFTER_SEC` are aborted by the sweep.
 */
import { discardUpload, type UploadSession } from '../../shared/upload-session.js';

const PREFIX = 'upload:';

export type { UploadSession };

export class UploadSessions {
  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly bucket: R2Bucket,
  ) {}

  async put(session: UploadSession): Promise<void> {
    await this.storage.put(PREFIX + session.upload_id, session);
  }

  async get(uploadId: string): Promise<UploadSession | null> {
    return (await this.storage.get<UploadSession>(PREFIX + uploadId)) ?? null;
  }

  /** Records one uploaded part (parts may arrive in parallel; the object's input gate keeps read and write together). */
  async recordPart(
    uploadId: string,
    n: number,
    part: { etag: string; size: number },
    now: number,
  ): Promise<UploadSession | null> {
    const session = await this.get(uploadId);
    if (!session || session.completed) return null;
    const next = { ...session, parts: { ...session.parts, [String(n)]: part }, touched_at: now };
    await this.storage.put(PREFIX + uploadId, next);
    return next;
  }

  /** The key's sessions (open or completed and not yet used) and the bytes their parts hold. */
  async usage(): Promise<{ sessions: number; bytes: number }> {
    let sessions = 0;
    let bytes = 0;
    for (const session of (await this.storage.list<UploadSession>({ prefix: PREFIX })).values()) {
      sessions++;
      bytes += session.completed?.size ?? Object.values(session.parts).reduce((sum, p) => sum + p.size, 0);
    }
    return { sessions, bytes };
  }

  async delete(uploadId: string): Promise<void> {
    await this.storage.delete(PREFIX + uploadId);
  }

  /** Aborts (or deletes, when completed) the sessions untouched for `abandonMs`; returns how many remain. */
  async sweep(now: number, abandonMs: number): Promise<number> {
    let kept = 0;
    for (const [key, session] of await this.storage.list<UploadSession>({ prefix: PREFIX })) {
      if (now - session.touched_at < abandonMs) {
        kept++;
        continue;
      }
      await discardUpload(this.bucket, session);
      await this.storage.delete(key);
    }
    return kept;
  }
}
