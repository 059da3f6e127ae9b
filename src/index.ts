/**
 * @module index
 * The Worker: HTTP API (Hono), the queue consumer (pipeline) and the Durable Object classes.
 */
import { createApp } from './api/app.js';
import type { Env } from './shared/env.js';
import type { JobMessage } from './jobs/job-object.js';
import { handleBatch } from './pipeline/consumer.js';
import { stopContainerWork } from './media/stop-work.js';

export { JobObject } from './jobs/job-object.js';
export { TenantObject } from './jobs/tenant-object.js';
export { MediaContainer } from './media/container.js';
export { JobRunner } from './pipeline/consumer.js';

// DELETE of a running job stops its work in the media container at once (the API layer does not import the media client).
const app = createApp({ stopJobWork: stopContainerWork });

export default {
  fetch: app.fetch,
  queue: handleBatch,
} satisfies ExportedHandler<Env, JobMessage>;
