/**
 * @module api/app
 * The HTTP surface: public routes, then everything under the API key.
 */
import { Hono } from 'hono';
import { adminRoutes } from './admin.js';
import { analyzeRoutes } from './analyze.js';
import { avatarRoutes } from './avatars.js';
import { fileRoutes } from './files.js';
import { accessLog, notFound, onError, requestId, requireApiKey, type AppEnv } from './middleware.js';
import { processRoutes } from './process.js';
import { statusRoutes } from './status.js';

export function createApp() {
  const app = new Hono<AppEnv>();
  app.use('*', requestId(), accessLog());
  app.onError(onError);
  app.notFound(notFound);

  app.get('/healthz', (c) => c.json({ ok: true }));
  app.route('/', fileRoutes);
  app.route('/', adminRoutes);

  app.use('/api/*', requireApiKey());
  app.use('/status/*', requireApiKey());
  app.route('/', analyzeRoutes);
  app.route('/', processRoutes);
  app.route('/', avatarRoutes);
  app.route('/', statusRoutes);
  return app;
}
