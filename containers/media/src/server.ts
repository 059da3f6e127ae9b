/**
 * @module containers/media/server
 * The media container's HTTP service (Hono on Node): the internal API the pipeline calls.
 */
import { Hono } from 'hono';
import { coreRoutes } from './routes.js';

export function createMediaApp(): Hono {
  const app = new Hono();
  app.onError((err, c) => {
    console.error(JSON.stringify({ level: 'error', path: c.req.path, error: String(err?.stack ?? err) }));
    return c.json({ error: { code: 'internal_error', message: err.message || 'internal error' } }, 500);
  });
  app.notFound((c) => c.json({ error: { code: 'not_found', message: `no route ${c.req.method} ${c.req.path}` } }, 404));
  app.route('/', coreRoutes);
  return app;
}
