/**
 * @module api/files
 * GET/HEAD {storage_url}/files/{key}?expires=..&token=.. — signed downloads, with Range, If-Range
 * and If-None-Match (304).
 * No API key: the token is the credential, bound to one object and one expiry.
 */
import { Hono, type Context } from 'hono';
import { ApiError } from '../contract/errors.js';
import { verifyDownload } from '../storage/signed-url.js';
import type { AppEnv } from './middleware.js';
import { signingSecret } from './storage-config.js';

/** Parses a single `bytes=` range against a size; null for no/ignored range, 'invalid' for 416. */
export function parseRange(
  header: string | undefined,
  size: number,
): { offset: number; length: number } | null | 'invalid' {
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

/**
 * Pure: whether a conditional header's entity tags match `etag`. `*` matches any; weak comparison
 * ignores `W/` (If-None-Match), strong comparison refuses weak tags (If-Range); an If-Range date
 * never matches (we send no Last-Modified), so the whole file is sent.
 */
export function etagMatches(
  header: string | undefined,
  etag: string,
  comparison: 'weak' | 'strong',
): boolean {
  if (header === undefined) return false;
  const want = header.trim();
  if (comparison === 'weak' && want === '*') return true;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return want
    .split(',')
    .some((t) =>
      comparison === 'strong' ? !t.trim().startsWith('W/') && t.trim() === etag : bare(t) === bare(etag),
    );
}

async function serveFile(c: Context<AppEnv>): Promise<Response> {
  const key = decodeURIComponent(c.req.path.replace(/^\/files\//, ''));
  const check = await verifyDownload(signingSecret(c.env), key, c.req.query('expires'), c.req.query('token'));
  if (check === 'invalid')
    throw new ApiError('invalid_signature', 'the download link is not valid for this file');
  if (check === 'expired')
    throw new ApiError(
      'link_expired',
      'the download link has expired: poll the status endpoint for a fresh one',
    );

  const head = await c.env.MEDIA.head(key);
  if (!head) throw new ApiError('not_found', 'the file no longer exists');
  // RFC 9110 §13.1.2: a matching If-None-Match is 304 (no body); §13.1.5: a Range under an If-Range
  // whose validator no longer matches is ignored (the whole, current file is sent).
  if (etagMatches(c.req.header('if-none-match'), head.httpEtag, 'weak')) {
    return new Response(null, {
      status: 304,
      headers: { ETag: head.httpEtag, 'Cache-Control': 'private, max-age=3600' },
    });
  }
  const ifRange = c.req.header('if-range');
  const rangeHeader =
    ifRange === undefined || etagMatches(ifRange, head.httpEtag, 'strong')
      ? c.req.header('range')
      : undefined;
  const range = parseRange(rangeHeader, head.size);
  if (range === 'invalid') {
    c.header('Content-Range', `bytes */${head.size}`);
    throw new ApiError(
      'range_not_satisfiable',
      `the requested range is outside the file of ${head.size} bytes`,
    );
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
  if (range)
    headers.set('Content-Range', `bytes ${range.offset}-${range.offset + range.length - 1}/${head.size}`);
  if (c.req.method === 'HEAD') return new Response(null, { status, headers });
  const obj = await c.env.MEDIA.get(key, range ? { range } : undefined);
  if (!obj) throw new ApiError('not_found', 'the file no longer exists');
  return new Response(obj.body, { status, headers });
}

export const fileRoutes = new Hono<AppEnv>().on(['GET', 'HEAD'], '/files/*', serveFile);
