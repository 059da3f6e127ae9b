/**
 * @module web
 * GET / — the web page: enter the key, drop a video, watch progress, see the results.
 * Public (the page asks for the key itself). Inline script and style run under a fresh
 * CSP nonce per response; nothing is loaded from other origins.
 */
import { Hono } from 'hono';
import type { Env } from '../shared/env.js';
import { base64url } from '../shared/ids.js';
import { pageHtml } from './page.js';

export { processingReportItems, renderResults, type ResultsViewOptions } from './results/index.js';

/** The origin of download links when they live elsewhere (STORAGE_URL), for media-src. */
function storageSource(storageUrl: string | undefined): string {
  if (!storageUrl) return '';
  try {
    return ` ${new URL(storageUrl).origin}`;
  } catch {
    return '';
  }
}

/**
 * The page's Content-Security-Policy for one nonce.
 * @example
 * contentSecurityPolicy('abc', 'https://files.example.com')
 */
export function contentSecurityPolicy(nonce: string, storageUrl?: string): string {
  const storage = storageSource(storageUrl);
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    `media-src 'self' blob:${storage}`,
    "img-src 'self' data: blob:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Mount with `app.route('/', webRoutes)` (before the API-key middleware; `/` needs no key): the
 * Worker entry hands it to `createApp({ pages })`, so the API layer does not import the page.
 * @example
 * const res = await webRoutes.request('/');
 */
export const webRoutes = new Hono<{ Bindings: Env }>().get('/', (c) => {
  const nonce = base64url(crypto.getRandomValues(new Uint8Array(16)));
  c.header('Content-Security-Policy', contentSecurityPolicy(nonce, c.env?.STORAGE_URL));
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('X-Frame-Options', 'DENY');
  c.header('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
  c.header('Cache-Control', 'no-store');
  return c.html(pageHtml(nonce));
});
