/**
 * @module index
 * The Worker: HTTP API (Hono), the queue consumer (pipeline) and the Durable Object classes.
 */
import { createApp } from './api/app.js';
import type { Env } from './shared/env.js';
import { endJobWork, handleBatch } from './pipeline/consumer.js';
import { stopContainerWork } from './media/stop-work.js';
import { webRoutes } from './web/index.js';
import { warmUpIsolate } from './pipeline/warm-up.js';
import { JobObject as JobObjectCore, type JobMessage } from './jobs/job-object.js';
import { purgeJobFiles } from './storage/purge.js';
import { handleWebhookBatch, isWebhookQueue } from './webhooks/deliver.js';
import type { WebhookMessage } from './jobs/tenant-object.js';

/**
 * The Job Durable Object with its ports bound: purge to R2 (`storage/purge`), and the end of a
 * failed job's work to R2 and the media container (`pipeline/consumer`). Adds no members.
 */
export class JobObject extends JobObjectCore {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env, { purgeJobFiles, endJobWork: (videoId) => endJobWork(env, videoId) });
  }
}
export { TenantObject } from './jobs/tenant-object.js';
export { MediaContainer } from './media/container.js';
export { JobRunner } from './pipeline/consumer.js';

// The entry composes the layers: DELETE of a running job stops its work in the media container at
// once, `/` serves the web page and a health check warms the isolate's edge work, without the API
// layer importing the media client, the page or the pipeline.
const app = createApp({ stopJobWork: stopContainerWork, pages: webRoutes, warmUp: warmUpIsolate });

export default {
  fetch: app.fetch,
  // Two queues, one handler: the jobs (and their dead letters), and the webhook deliveries.
  queue: (batch, env) =>
    isWebhookQueue(batch.queue)
      ? handleWebhookBatch(batch as MessageBatch<WebhookMessage>, env)
      : handleBatch(batch as MessageBatch<JobMessage>, env),
} satisfies ExportedHandler<Env, JobMessage | WebhookMessage>;
