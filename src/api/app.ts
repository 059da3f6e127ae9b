/**
 * @module api/app
 * The HTTP surface: public routes, then everything under the API key.
 */
import { Hono } from 'hono';
import type { Env } from '../shared/env.js';
import { adminRoutes } from './admin.js';
import { docsRoutes } from './docs.js';
import { analyzeRoutes } from './analyze.js';
import { avatarRoutes } from './avatars.js';
import { fileRoutes } from './files.js';
import { createJobRoutes, type JobRoutesOptions } from './jobs.js';
import {
  accessLog,
  notFoundOrNotAllowed,
  onError,
  rateLimit,
  requestId,
  requireApiKey,
  securityHeaders,
  type AppEnv,
} from './middleware.js';
import { captionRoutes } from './captions.js';
import { listRoutes } from './lists.js';
import { processRoutes } from './process.js';
import { statusRoutes } from './status.js';
import { uploadRoutes } from './uploads.js';
import { webhookRoutes } from './webhooks.js';

export interface AppOptions {
  /** Stops a deleted job's running work (the Worker passes the media container's `DELETE /jobs/{id}`). */
  stopJobWork?: JobRoutesOptions['stopWork'];
  /** Public pages mounted before the API key (the Worker passes the web page, `src/web`). Default: none. */
  pages?: Hono<{ Bindings: Env }>;
  /**
   * Readies the isolate's edge work after the first health check answers (the Worker passes
   * `pipeline/warm-up`; `npm start` calls /healthz once the API is up). Default: none.
   */
  warmUp?: (env: Env) => Promise<void>;
}

export function createApp({ stopJobWork, pages, warmUp }: AppOptions = {}) {
  const app = new Hono<AppEnv>();
  app.use('*', requestId(), accessLog(), securityHeaders());
  app.onError(onError);
  app.notFound(notFoundOrNotAllowed(() => app.routes));

  app.get('/healthz', (c) => {
    if (warmUp) c.executionCtx.waitUntil(warmUp(c.env));
    return c.json({ ok: true });
  });
  app.route('/', fileRoutes);
  app.route('/', adminRoutes);
  app.route('/', docsRoutes);
  if (pages) app.route('/', pages);

  app.use('/api/*', requireApiKey(), rateLimit());
  app.use('/status/*', requireApiKey(), rateLimit());
  app.route('/', analyzeRoutes);
  app.route('/', processRoutes);
  app.route('/', avatarRoutes);
  app.route('/', statusRoutes);
  app.route('/', listRoutes);
  app.route('/', captionRoutes);
  app.route('/', webhookRoutes);
  app.route('/', createJobRoutes({ stopWork: stopJobWork }));
  app.route('/', uploadRoutes);
  return app;
}
