/**
 * @module webhooks/signature
 * Standard Webhooks signatures (standardwebhooks.com): `v1,` + base64(HMAC-SHA256(key, `{id}.{timestamp}.{body}`)),
 * where the key is the base64-decoded part of a `whsec_` secret. With several valid secrets (the
 * day after a rotation) the header carries one signature each, separated by spaces.
 */
const SECRET_PREFIX = 'whsec_';

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

function secretKey(secret: string): Uint8Array {
  const b64 = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

/** The `webhook-signature` header of one attempt: one `v1,<sig>` per secret. */
export async function signWebhook(
  secrets: readonly string[],
  id: string,
  timestampSec: number,
  body: string,
): Promise<string> {
  const content = new TextEncoder().encode(`${id}.${timestampSec}.${body}`);
  const signatures = await Promise.all(
    secrets.map(async (secret) => {
      const key = await crypto.subtle.importKey(
        'raw',
        secretKey(secret),
        { name: 'HMAC', hash: 'SHA-256' },
        false,
        ['sign'],
      );
      return `v1,${toBase64(new Uint8Array(await crypto.subtle.sign('HMAC', key, content)))}`;
    }),
  );
  return signatures.join(' ');
}
