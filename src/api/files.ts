/**
 * @module api/files
 * GET/HEAD {storage_url}/files/{key}?expires=..&token=.. — signed downloads, with Range.
 * No API key: the token is the credential, bound to one object and one expiry.
 */
import { Hono, type Context } from 'hono';
import { ApiError } from '../contract/errors.js';
import { verifyDownload } from '../storage/signed-url.js';
import type { AppEnv } from './middleware.js';
import { signingSecret } from './storage-config.js';

/** Parses a single `bytes=` range against a size; null for no/ignored range, 'invalid' for 416. */
export function parseRange(header: string | undefined, size: number): { offset: number; length: number } | null | 'invalid' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null; // multi-range or junk: serve the whole file
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'invalid';
    const length = Math.min(suffix, size);
    return { offset: size - length, length };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'invalid';
  return { offset: start, length: end - start + 1 };
}

async function serveFile(c: Context<AppEnv>): Promise<Response> {
  const key = decodeURIComponent(c.req.path.replace(/^\/files\//, ''));
  const check = await verifyDownload(signingSecret(c.env), key, c.req.query('expires'), c.req.query('token'));
  if (check === 'invalid') throw new ApiError('invalid_signature', 'the download link is not valid for this file');
  if (check === 'expired') throw new ApiError('link_expired', 'the download link has expired: poll the status endpoint for a fresh one');

  const head = await c.env.MEDIA.head(key);
  if (!head) throw new ApiError('not_found', 'the file no longer exists');
  const range = parseRange(c.req.header('range'), head.size);
  if (range === 'invalid') {
    c.header('Content-Range', `bytes */${head.size}`);
    throw new ApiError('range_not_satisfiable', `the requested range is outside the file of ${head.size} bytes`);
  }
  const headers = new Headers({
    'Accept-Ranges': 'bytes',
    'Content-Type': head.httpMetadata?.contentType ?? 'application/octet-stream',
    'Cache-Control': 'private, max-age=3600',
    ETag: head.httpEtag,
    'Content-Disposition': `attachment; filename="${key.split('/').slice(-2).join('-')}"`,
  });
  const status = range ? 206 : 200;
  headers.set('Content-Length', String(range ? range.length : head.size));
  if (range) headers.set('Content-Range', `bytes ${range.offset}-${range.offset + range.length - 1}/${head.size}`);
  if (c.req.method === 'HEAD') return new Response(null, { status, headers });
  const obj = await c.env.MEDIA.get(key, range ? { range } : undefined);
  if (!obj) throw new ApiError('not_found', 'the file no longer exists');
  return new Response(obj.body, { status, headers });
}

export const fileRoutes = new Hono<AppEnv>().on(['GET', 'HEAD'], '/files/*', serveFile);
