/**
 * @module api/app
 * The HTTP surface: public routes, then everything under the API key.
 */
import { Hono } from 'hono';
import { webRoutes } from '../web/index.js';
import { adminRoutes } from './admin.js';
import { docsRoutes } from './docs.js';
import { analyzeRoutes } from './analyze.js';
import { avatarRoutes } from './avatars.js';
import { fileRoutes } from './files.js';
import { createJobRoutes, type JobRoutesOptions } from './jobs.js';
import { accessLog, notFoundOrNotAllowed, onError, rateLimit, requestId, requireApiKey, securityHeaders, type AppEnv } from './middleware.js';
import { processRoutes } from './process.js';
import { statusRoutes } from './status.js';
import { uploadRoutes } from './uploads.js';

export interface AppOptions {
  /** Stops a deleted job's running work (the Worker passes the media container's `DELETE /jobs/{id}`). */
  stopJobWork?: JobRoutesOptions['stopWork'];
}

export function createApp({ stopJobWork }: AppOptions = {}) {
  const app = new Hono<AppEnv>();
  app.use('*', requestId(), accessLog(), securityHeaders());
  app.onError(onError);
  app.notFound(notFoundOrNotAllowed(() => app.routes));

  app.get('/healthz', (c) => c.json({ ok: true }));
  app.route('/', fileRoutes);
  app.route('/', adminRoutes);
  app.route('/', docsRoutes);
  app.route('/', webRoutes);

  app.use('/api/*', requireApiKey(), rateLimit());
  app.use('/status/*', requireApiKey(), rateLimit());
  app.route('/', analyzeRoutes);
  app.route('/', processRoutes);
  app.route('/', avatarRoutes);
  app.route('/', statusRoutes);
  app.route('/', createJobRoutes({ stopWork: stopJobWork }));
  app.route('/', uploadRoutes);
  return app;
}
