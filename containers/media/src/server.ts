/**
 * @module containers/media/server
 * The media container's HTTP service (Hono on Node): the internal API the pipeline calls.
 * Each engine family contributes its routes; this file only mounts them.
 */
import { Hono } from 'hono';
import { asrRoutes } from '../engines/asr/routes.js';
import { renderRoutes } from '../engines/render/routes.js';
import { ttsRoutes } from '../engines/tts/routes.js';
import { visionRoutes } from '../engines/vision/routes.js';
import { coreRoutes } from './routes.js';

export function createMediaApp(): Hono {
  const app = new Hono();
  app.onError((err, c) => {
    console.error(JSON.stringify({ level: 'error', path: c.req.path, error: String(err?.stack ?? err) }));
    return c.json({ error: { code: 'internal_error', message: err.message || 'internal error' } }, 500);
  });
  app.notFound((c) => c.json({ error: { code: 'not_found', message: `no route ${c.req.method} ${c.req.path}` } }, 404));
  app.route('/', coreRoutes);
  app.route('/', asrRoutes);
  app.route('/', visionRoutes);
  app.route('/', ttsRoutes);
  app.route('/', renderRoutes);
  return app;
}
