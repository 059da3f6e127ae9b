/**
 * @module storage/purge
 * Deleting what a job or an avatar left in R2 (retention, DELETE endpoints).
 */
import { r2Keys } from '../shared/r2-keys.js';

/** Deletes every object under `prefix`, page by page; returns how many. */
export async function deletePrefix(bucket: R2Bucket, prefix: string): Promise<number> {
  let deleted = 0;
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, cursor });
    if (page.objects.length) await bucket.delete(page.objects.map((o) => o.key));
    deleted += page.objects.length;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return deleted;
}

/** Removes a job's intermediates (`work/{video_id}/`), when the job ends. */
export async function deleteJobWork(bucket: R2Bucket, videoId: string): Promise<void> {
  await deletePrefix(bucket, r2Keys.workPrefix(videoId));
}

/**
 * Removes a job's upload, intermediates, output and result. A registered avatar used as the
 * job's source lives under `avatars/` and is not touched.
 */
export async function purgeJobFiles(bucket: R2Bucket, videoId: string): Promise<void> {
  for (const prefix of r2Keys.jobPrefixes(videoId)) await deletePrefix(bucket, prefix);
  await bucket.delete(r2Keys.result(videoId));
}
