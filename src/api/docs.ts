/**
 * @module api/docs
 * GET /openapi.json and GET /docs: the machine- and human-readable reference. Public.
 */
import { Hono } from 'hono';
import { maxUploadBytes } from '../storage/upload-limit.js';
import type { AppEnv } from './middleware.js';
import { openApiDocument, renderDocs } from './openapi/index.js';

export { openApiDocument } from './openapi/index.js';

/** The docs page runs no script and loads nothing: the strictest policy fits. */
const DOCS_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * Routes serving the document; mount with `app.route('/', docsRoutes)` before the API-key middleware.
 * @example
 * const res = await docsRoutes.request('/openapi.json');
 */
export const docsRoutes = new Hono<AppEnv>()
  .get('/openapi.json', (c) => {
    const doc = openApiDocument({
      serverUrl: new URL(c.req.url).origin,
      maxUploadBytes: maxUploadBytes(c.env),
    });
    c.header('Cache-Control', 'public, max-age=300');
    c.header('Access-Control-Allow-Origin', '*');
    return c.json(doc);
  })
  .get('/docs', (c) => {
    const doc = openApiDocument({
      serverUrl: new URL(c.req.url).origin,
      maxUploadBytes: maxUploadBytes(c.env),
    });
    c.header('Content-Security-Policy', DOCS_CSP);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    c.header('Cache-Control', 'public, max-age=300');
    return c.html(renderDocs(doc));
  });
