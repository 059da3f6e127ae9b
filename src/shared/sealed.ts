/**
 * @module shared/sealed
 * A provider credential at rest (issue #34): sealed with AES-256-GCM (WebCrypto) under a key
 * derived (HKDF-SHA-256) from a secret of the environment, and bound to the job it belongs to
 * (its id is the additional data: a sealed value copied into another job's record does not open).
 * The job record keeps only the sealed text; the plain value exists in memory while the provider
 * call is made, and goes with the record when the job is deleted or expires.
 */
import { base64url } from './ids.js';

/** Prefix of a sealed value: version 1, AES-GCM, 12-byte IV, the ciphertext with its 16-byte tag. */
export const SEALED_PREFIX = 'sealed.v1.';
const HKDF_INFO = new TextEncoder().encode('video-api job credential v1');
const encoder = new TextEncoder();

async function sealingKey(secret: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(32), info: HKDF_INFO },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/**
 * Seals `plain` for the job `bindTo`.
 * @example await seal(env.SIGNING_SECRET, 'sk_live…', 'vid_…') // → 'sealed.v1.…'
 */
export async function seal(secret: string, plain: string, bindTo: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: encoder.encode(bindTo) },
    await sealingKey(secret),
    encoder.encode(plain),
  );
  const out = new Uint8Array(12 + sealed.byteLength);
  out.set(iv);
  out.set(new Uint8Array(sealed), 12);
  return SEALED_PREFIX + base64url(out);
}

/** The plain value of `seal(secret, plain, bindTo)`; throws when the secret, the job or the text differ. */
export async function unseal(secret: string, sealed: string, bindTo: string): Promise<string> {
  if (!sealed.startsWith(SEALED_PREFIX)) throw new Error('not a sealed value');
  const bytes = fromBase64url(sealed.slice(SEALED_PREFIX.length));
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: bytes.subarray(0, 12), additionalData: encoder.encode(bindTo) },
    await sealingKey(secret),
    bytes.subarray(12),
  );
  return new TextDecoder().decode(plain);
}

function fromBase64url(text: string): Uint8Array {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4)), (c) => c.charCodeAt(0));
}
