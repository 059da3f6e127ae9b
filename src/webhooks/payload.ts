/**
 * @module webhooks/payload
 * The body of a job's webhook: `{ type, timestamp, data: { video_id, ...the status fields } }`, as
 * `GET /api/status/{id}` shows the job at its end. Built once, at the first attempt; its download
 * link is signed then (valid DOWNLOAD_URL_TTL_SEC, 24 h by default). An analysis result larger than
 * WEBHOOK_MAX_INLINE_RESULT_BYTES is left out (`result_omitted: true`): a receiver reads it from the
 * status endpoint.
 */
import type { StatusResponse } from '../contract/jobs.js';
import { WEBHOOK_MAX_INLINE_RESULT_BYTES, type WebhookEvent } from '../contract/webhooks.js';
import { endedOrUpdatedAt, statusFields, type JobRecord } from '../jobs/state.js';
import type { Env } from '../shared/env.js';
import { downloadTtlSec, signDownloadUrl } from '../storage/signed-url.js';

/** Pure: the JSON body of an event about `videoId` at `at` (ms). */
export const webhookBody = (type: WebhookEvent, at: number, data: Record<string, unknown>) =>
  JSON.stringify({ type, timestamp: new Date(at).toISOString(), data });

export async function jobWebhookBody(
  env: Env,
  job: JobRecord,
  type: WebhookEvent,
  origin: string,
): Promise<string> {
  const data: StatusResponse & { video_id: string; result_omitted?: boolean } = {
    video_id: job.video_id,
    ...statusFields(job),
  };
  if (job.status === 'completed' && job.kind === 'processing' && env.SIGNING_SECRET)
    data.download_url = await signDownloadUrl(
      env.STORAGE_URL || origin,
      env.SIGNING_SECRET,
      job.output_key,
      downloadTtlSec(env),
    );
  if (job.status === 'completed' && job.kind === 'analysis') {
    const head = await env.MEDIA.head(job.result_key);
    if (head && head.size <= WEBHOOK_MAX_INLINE_RESULT_BYTES) {
      const stored = await env.MEDIA.get(job.result_key);
      if (stored) data.result = await stored.json();
    } else if (head) data.result_omitted = true;
  }
  return webhookBody(type, endedOrUpdatedAt(job), data);
}
