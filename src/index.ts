/**
 * @module index
 * The Worker: HTTP API (Hono), the queue consumer (pipeline) and the Durable Object classes.
 */
import { createApp } from './api/app.js';
import type { Env } from './env.js';
import type { JobMessage } from './jobs/job-object.js';
import { handleBatch } from './pipeline/consumer.js';

export { JobObject } from './jobs/job-object.js';
export { TenantObject } from './jobs/tenant-object.js';
export { MediaContainer } from './media/container.js';
export { JobRunner } from './pipeline/consumer.js';

const app = createApp();

export default {
  fetch: app.fetch,
  queue: handleBatch,
} satisfies ExportedHandler<Env, JobMessage>;
