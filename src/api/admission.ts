/**
 * @module api/admission
 * What the three POST endpoints do around their work: take a concurrent-job slot once the form
 * is read and valid (429 when the key has too many unfinished jobs), and honour `Idempotency-Key`.
 *
 * Idempotency: the fingerprint of a request is SHA-256 over method, path, key id, the text
 * fields, and each file's size and SHA-256 (hashed as it streams into R2). The first request
 * with a key runs; a repeat with the same fingerprint gets the stored response (header
 * `Idempotent-Replayed: true`) and its duplicate upload is deleted; a different request with the
 * same key is 422 `idempotency_key_reused`; a repeat while the first still runs is 409
 * `idempotency_in_progress`. Failed requests are not stored, so retrying them runs again.
 * Keys expire after `IDEMPOTENCY_TTL_SEC` (24 h).
 */
import type { Context } from 'hono';
import { effectiveLimits, idempotencyTtlMs, tenantStub } from '../auth/limits.js';
import { ApiError } from '../contract/errors.js';
import type { IdempotencyVerdict } from '../jobs/tenant-object.js';
import type { ParsedForm } from '../storage/form.js';
import { sha256Hex } from '../shared/digest.js';
import type { AppEnv } from './middleware.js';

/** Seconds a client is asked to wait when all its job slots are taken. */
export const JOBS_FULL_RETRY_AFTER_SEC = 10;
const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export interface Gate {
  /** Whether the file parts must be hashed (an Idempotency-Key was sent). */
  readonly hashing: boolean;
  /**
   * Takes a concurrent-job slot (429 `concurrent_jobs` when the key has none free). Called once the
   * form is read and valid, just before the job is created: an invalid form is answered as such
   * whatever the key's slots, and the slot is held only for the moment before the job exists.
   */
  admit(): Promise<void>;
  /** After the upload: a Response to return (replay), or null to go on. Throws 422/409. */
  check(form: ParsedForm): Promise<Response | null>;
  /** The work succeeded: remember the response for the key. */
  finish(body: Record<string, unknown>): Promise<void>;
  /** The work failed (or the request was a replay): free the slot, forget the key. Idempotent. */
  release(): Promise<void>;
}

/** The `Idempotency-Key` header, validated; null when absent. */
export function idempotencyKeyOf(c: Context<AppEnv>): string | null {
  const raw = c.req.header('idempotency-key');
  if (raw === undefined) return null;
  if (!IDEMPOTENCY_KEY_PATTERN.test(raw)) {
    throw new ApiError('invalid_request', 'Idempotency-Key must be 1–255 visible ASCII characters', {
      header: 'Idempotency-Key',
    });
  }
  return raw;
}

/**
 * Opens the gate of one job-creating request. `jobId` null: the request creates no job
 * (register-avatar), so no slot is taken.
 * @example
 * const gate = await openGate(c, videoId);
 * try { const form = await readUploadForm(..., { hash: gate.hashing }); const replay = await gate.check(form); validate(form); await gate.admit(); submitJob(...) }
 * catch (err) { await gate.release(); throw err; }
 */
export async function openGate(c: Context<AppEnv>, jobId: string | null): Promise<Gate> {
  const tenant = c.get('tenant');
  const stub = tenantStub(c.env, tenant.id);
  const key = idempotencyKeyOf(c);
  // A known key is a retry: it must reach the replay even when every slot is taken.
  const known = key !== null && (await stub.idempotencyKnown(key));
  let slot = false;
  let fingerprint: string | null = null;
  let begun = false;

  const release = async () => {
    if (slot && jobId !== null) {
      slot = false;
      await stub.releaseJob(jobId).catch(() => {});
    }
    if (begun && key !== null && fingerprint !== null) {
      begun = false;
      await stub.idempotencyAbandon(key, fingerprint).catch(() => {});
    }
  };

  return {
    hashing: key !== null,
    async admit() {
      if (jobId === null || known || slot) return;
      const limit = effectiveLimits(c.env, tenant).concurrent_jobs;
      const verdict = await stub.admitJob(jobId, limit);
      if (!verdict.allowed) {
        c.header('Retry-After', String(JOBS_FULL_RETRY_AFTER_SEC));
        throw new ApiError(
          'rate_limited',
          `this API key already has ${verdict.active} unfinished jobs (limit ${verdict.limit}); retry when one ends`,
          {
            reason: 'concurrent_jobs',
            limit: verdict.limit,
          },
        );
      }
      slot = true;
    },
    async check(form) {
      if (key === null) return null;
      fingerprint = await requestFingerprint(c.req.method, c.req.path, tenant.key_id, form);
      const verdict = (await stub.idempotencyBegin(
        key,
        fingerprint,
        idempotencyTtlMs(c.env),
      )) as IdempotencyVerdict;
      if (verdict.state === 'new') {
        begun = true;
        return null;
      }
      // Nothing of this request is kept: the duplicate upload goes, and so does the slot.
      await Promise.all(Object.values(form.files).map((f) => c.env.MEDIA.delete(f.key).catch(() => {})));
      await release();
      if (verdict.state === 'mismatch') {
        throw new ApiError(
          'idempotency_key_reused',
          'this Idempotency-Key was already used with a different request',
          { header: 'Idempotency-Key' },
        );
      }
      if (verdict.state === 'in_progress') {
        c.header('Retry-After', '1');
        throw new ApiError(
          'idempotency_in_progress',
          'a request with this Idempotency-Key is still being handled; retry shortly',
          { header: 'Idempotency-Key' },
        );
      }
      c.header('Idempotent-Replayed', 'true');
      return c.json(verdict.response.body as Record<string, unknown>, verdict.response.status as 200);
    },
    async finish(body) {
      slot = false; // the job owns the slot now; it frees it when it ends
      if (key !== null && fingerprint !== null && begun) {
        begun = false;
        await stub.idempotencyFinish(key, fingerprint, { status: 200, body });
      }
    },
    release,
  };
}

/** Deterministic: the fingerprint of a parsed request (text fields and file digests, order-independent). */
export async function requestFingerprint(
  method: string,
  path: string,
  keyId: string,
  form: Pick<ParsedForm, 'files' | 'fields' | 'digests'>,
): Promise<string> {
  const fields = Object.entries(form.fields).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const files = Object.entries(form.files)
    .map(([name, f]) => [name, f.size, form.digests[name] ?? null] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return sha256Hex(
    JSON.stringify({ method, path, key: keyId, fields: await sha256Hex(JSON.stringify(fields)), files }),
  );
}
