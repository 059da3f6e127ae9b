/**
 * @module index
 * The Worker: HTTP API (Hono), the queue consumer (pipeline) and the Durable Object classes.
 */
import { createApp } from './api/app.js';
import type { Env } from './shared/env.js';
import type { JobMessage } from './jobs/job-object.js';
import { handleBatch } from './pipeline/consumer.js';
import { stopContainerWork } from './media/stop-work.js';
import { webRoutes } from './web/index.js';

export { JobObject } from './jobs/job-object.js';
export { TenantObject } from './jobs/tenant-object.js';
export { MediaContainer } from './media/container.js';
export { JobRunner } from './pipeline/consumer.js';

// The entry composes the layers: DELETE of a running job stops its work in the media container at
// once, and `/` serves the web page, without the API layer importing the media client or the page.
const app = createApp({ stopJobWork: stopContainerWork, pages: webRoutes });

export default {
  fetch: app.fetch,
  queue: handleBatch,
} satisfies ExportedHandler<Env, JobMessage>;
