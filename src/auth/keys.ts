/**
 * @module auth/keys
 * API keys: only their SHA-256 is stored (R2 `keys/{hash}.json`); development keys come from
 * `DEV_API_KEY`. Each key is its own tenant. Keys are never logged.
 */
import { sha256Hex } from '../shared/digest.js';
import { KeyLimits, type KeyRecord } from '../contract/keys.js';
import { base64url } from '../shared/ids.js';
import { r2Keys } from '../shared/r2-keys.js';

export interface Tenant {
  /** Stable, non-secret id: namespaces jobs, avatars and files. */
  id: string;
  key_id: string;
  name: string;
  /** Per-key overrides of the default limits; empty for development keys. */
  limits: KeyLimits;
}

export type { KeyLimits, KeyRecord };

/** Keeps each limit of `KeyLimits` that is valid; anything else is dropped. */
export function sanitizeLimits(input: unknown): KeyLimits {
  const given = input && typeof input === 'object' ? (input as Record<string, unknown>) : {};
  const out: KeyLimits = {};
  for (const field of KeyLimits.keyof().options) {
    const parsed = KeyLimits.shape[field].safeParse(given[field]);
    if (parsed.success && parsed.data !== undefined) out[field] = parsed.data;
  }
  return out;
}

export interface KeysEnv {
  MEDIA: R2Bucket;
  DEV_API_KEY?: string;
}

/** Constant-time equality of two equal-length hex digests. */
export function digestsEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

export const devKeys = (env: KeysEnv) =>
  (env.DEV_API_KEY ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);

/** Finds the tenant of a presented key, or null when it is unknown or revoked. */
export async function authenticate(env: KeysEnv, presented: string): Promise<Tenant | null> {
  if (!presented || presented.length > 256) return null;
  const hash = await sha256Hex(presented);
  // Compare against every dev key, without early exit, so timing says nothing about which.
  let devMatch: string | null = null;
  for (const key of devKeys(env)) {
    const keyHash = await sha256Hex(key);
    if (digestsEqual(hash, keyHash)) devMatch = keyHash;
  }
  if (devMatch)
    return {
      id: `dev_${devMatch.slice(0, 16)}`,
      key_id: devMatch.slice(0, 16),
      name: 'development',
      limits: {},
    };
  const stored = await env.MEDIA.get(r2Keys.apiKey(hash));
  if (!stored) return null;
  const record = await stored.json<KeyRecord>();
  if (record.revoked_at) return null;
  return {
    id: record.tenant,
    key_id: record.key_id,
    name: record.name,
    limits: sanitizeLimits(record.limits),
  };
}

/** Issues a new key; the plain key is returned once and never stored. */
export async function createKey(
  env: KeysEnv,
  name: string,
  limits: KeyLimits = {},
): Promise<{ key: string; record: KeyRecord }> {
  const key = `vk_${base64url(crypto.getRandomValues(new Uint8Array(24)))}`;
  const hash = await sha256Hex(key);
  const record: KeyRecord = {
    key_id: hash.slice(0, 16),
    name,
    tenant: `t_${hash.slice(0, 16)}`,
    created_at: new Date().toISOString(),
    revoked_at: null,
    ...(Object.keys(limits).length ? { limits } : {}),
  };
  await env.MEDIA.put(r2Keys.apiKey(hash), JSON.stringify(record), {
    httpMetadata: { contentType: 'application/json' },
  });
  return { key, record };
}

export async function listKeys(env: KeysEnv): Promise<KeyRecord[]> {
  const records: KeyRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.MEDIA.list({ prefix: r2Keys.apiKeyPrefix, cursor });
    for (const obj of page.objects) {
      const body = await env.MEDIA.get(obj.key);
      if (body) records.push(await body.json<KeyRecord>());
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return records;
}

/** Revokes by key_id (the first 16 hex digits of the hash); false when no such key. */
export async function revokeKey(env: KeysEnv, keyId: string): Promise<KeyRecord | null> {
  if (!/^[0-9a-f]{16}$/.test(keyId)) return null;
  const page = await env.MEDIA.list({ prefix: `${r2Keys.apiKeyPrefix}${keyId}` });
  const obj = page.objects[0];
  if (!obj) return null;
  const body = await env.MEDIA.get(obj.key);
  if (!body) return null;
  const record = await body.json<KeyRecord>();
  const revoked = { ...record, revoked_at: record.revoked_at ?? new Date().toISOString() };
  await env.MEDIA.put(obj.key, JSON.stringify(revoked), {
    httpMetadata: { contentType: 'application/json' },
  });
  return revoked;
}
