/**
 * @module storage/signed-url
 * Download links: `{storage_url}/files/{key}?expires={unix}&token={HMAC-SHA256(key, expires)}`.
 * A plain GET fetches them with no credential; the token binds one object and one expiry.
 */
import { numberVar } from '../shared/env.js';
import { base64url } from '../shared/ids.js';

export const DEFAULT_DOWNLOAD_TTL_SEC = 86_400;
/** Lifetime of a download link (DOWNLOAD_URL_TTL_SEC), seconds. */
export const downloadTtlSec = (env: { DOWNLOAD_URL_TTL_SEC?: string }) =>
  numberVar(env.DOWNLOAD_URL_TTL_SEC, DEFAULT_DOWNLOAD_TTL_SEC);

const encoder = new TextEncoder();

async function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
}

async function sign(secret: string, key: string, expires: number): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', await hmacKey(secret), encoder.encode(`${key}\n${expires}`));
  return base64url(new Uint8Array(mac));
}

/** Builds the signed URL of an R2 object. */
export async function signDownloadUrl(
  storageUrl: string,
  secret: string,
  key: string,
  ttlSec: number,
  now = Date.now(),
): Promise<string> {
  const expires = Math.floor(now / 1000) + ttlSec;
  const token = await sign(secret, key, expires);
  const path = key.split('/').map(encodeURIComponent).join('/');
  return `${storageUrl.replace(/\/+$/, '')}/files/${path}?expires=${expires}&token=${token}`;
}

export type SignatureCheck = 'ok' | 'expired' | 'invalid';

/** Verifies a token in constant time (HMAC verify), then the expiry. */
export async function verifyDownload(
  secret: string,
  key: string,
  expiresParam: string | undefined,
  token: string | undefined,
  now = Date.now(),
): Promise<SignatureCheck> {
  if (!expiresParam || !token || !/^\d{1,12}$/.test(expiresParam)) return 'invalid';
  const expires = Number(expiresParam);
  let mac: Uint8Array;
  try {
    mac = Uint8Array.from(atob(token.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  } catch {
    return 'invalid';
  }
  const valid = await crypto.subtle.verify(
    'HMAC',
    await hmacKey(secret),
    mac,
    encoder.encode(`${key}\n${expires}`),
  );
  if (!valid) return 'invalid';
  return expires * 1000 < now ? 'expired' : 'ok';
}
