/**
 * @module api/storage-config
 * Where download links point and how they are signed.
 */
import type { Context } from 'hono';
import { ApiError } from '../contract/errors.js';
import type { Env } from '../shared/env.js';
import type { AppEnv } from './middleware.js';

/** `STORAGE_URL`, or the Worker's own origin when unset. */
export const storageOrigin = (c: Context<AppEnv>) => c.env.STORAGE_URL || new URL(c.req.url).origin;

export function signingSecret(env: Env): string {
  if (!env.SIGNING_SECRET)
    throw new ApiError('not_configured', 'download links are not configured: set the SIGNING_SECRET secret');
  return env.SIGNING_SECRET;
}

/** The secret provider credentials are sealed under in job records (`shared/sealed.ts`). */
export function credentialSecret(env: Env): string {
  if (!env.SIGNING_SECRET)
    throw new ApiError(
      'not_configured',
      'provider credentials cannot be accepted: set the SIGNING_SECRET secret (they are stored encrypted under it)',
    );
  return env.SIGNING_SECRET;
}
