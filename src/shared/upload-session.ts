/**
 * @module shared/upload-session
 * The record of one resumable upload (an R2 multipart upload bound to a tenant): kept by the
 * tenant's Durable Object, written and read by the storage layer and the API.
 */
/** An upload untouched this long is discarded by the tenant's sweep (`UPLOAD_ABANDON_AFTER_SEC`). */
export const DEFAULT_UPLOAD_ABANDON_SEC = 86_400;

export interface UploadSession {
  upload_id: string;
  r2_upload_id: string;
  key: string;
  part_bytes: number;
  max_bytes: number;
  parts: Record<string, { etag: string; size: number }>;
  created_at: number;
  touched_at: number;
  completed: { size: number; file_id: string } | null;
}

/** Deletes what an upload holds in R2: the file once completed, else the unfinished multipart upload. */
export async function discardUpload(bucket: R2Bucket, session: UploadSession): Promise<void> {
  if (session.completed) await bucket.delete(session.key).catch(() => {});
  else
    await bucket
      .resumeMultipartUpload(session.key, session.r2_upload_id)
      .abort()
      .catch(() => {});
}
