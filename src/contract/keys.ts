/**
 * @module contract/keys
 * The admin API's key records and per-key limits: what `auth/keys.ts` stores and checks and what
 * the OpenAPI document states, from one schema each.
 */
import { z } from 'zod';

/** A per-key limit: a positive integer (up to a million, beyond which it means nothing). */
const limit = z.number().int().min(1).max(1_000_000);

/** Per-key limits stored with the key record; a missing field takes the `[vars]` default. */
export const KeyLimits = z
  .object({
    requests_per_minute: limit
      .optional()
      .describe('Requests per minute other than status polls (default RATE_LIMIT_PER_MIN, 120).'),
    status_per_minute: limit
      .optional()
      .describe('Status polls per minute (default STATUS_RATE_LIMIT_PER_MIN, 600).'),
    concurrent_jobs: limit
      .optional()
      .describe('Unfinished jobs at once (default MAX_CONCURRENT_JOBS, 5); one more is 429.'),
  })
  .describe('Per-key overrides of the service defaults (positive integers; others are dropped).');
export type KeyLimits = z.infer<typeof KeyLimits>;

export const KeyRecord = z.object({
  key_id: z.string().describe('Non-secret id of the key (first 16 hex digits of its SHA-256).'),
  name: z.string(),
  tenant: z.string().describe("Namespace of the key's jobs and avatars."),
  created_at: z.iso.datetime(),
  revoked_at: z.iso.datetime().nullable(),
  limits: KeyLimits.optional(),
});
export type KeyRecord = z.infer<typeof KeyRecord>;

export const KeyCreated = KeyRecord.extend({
  key: z.string().describe('The API key. Shown only in this response; only its hash is stored.'),
});

/** `POST /admin/keys`: who the key is for, and optional limits (invalid limit fields are dropped, not refused). */
export const KeyRequest = z.looseObject({
  name: z.string().trim().min(1).max(100).describe('Who the key is for (trimmed).'),
  limits: KeyLimits.optional(),
});
