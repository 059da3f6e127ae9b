/**
 * @module jobs/tenant/idempotency
 * Idempotency-Key records of one tenant, in its storage under `idem:<key>`: the request's
 * fingerprint and the response it got, kept for the TTL the API asks (24 h).
 */

/** A record whose request never finished (crash mid-upload) stops blocking after this. */
export const IDEMPOTENCY_PENDING_MS = 60 * 60_000;

const PREFIX = 'idem:';

export interface StoredResponse {
  status: number;
  body: unknown;
}

export type IdempotencyVerdict =
  | { state: 'new' }
  | { state: 'replay'; response: StoredResponse }
  | { state: 'mismatch' }
  | { state: 'in_progress' };

interface IdempotencyRecord {
  fingerprint: string;
  response: StoredResponse | null;
  created_at: number;
  expires_at: number;
}

export const idempotencyExpired = (
  rec: { response: unknown; created_at: number; expires_at: number },
  now: number,
) => rec.expires_at <= now || (rec.response === null && now - rec.created_at > IDEMPOTENCY_PENDING_MS);

export class IdempotencyRecords {
  constructor(private readonly storage: DurableObjectStorage) {}

  /** Whether an unexpired record exists for the key (the API then skips the job-slot check). */
  async known(key: string, now: number): Promise<boolean> {
    const rec = await this.storage.get<IdempotencyRecord>(PREFIX + key);
    return rec !== undefined && !idempotencyExpired(rec, now);
  }

  /**
   * Starts a request under an Idempotency-Key: `new` (go ahead, then `finish`), `replay` (answer
   * the stored response), `mismatch` (the key was used for another request), `in_progress` (the
   * same request is still running).
   */
  async begin(key: string, fingerprint: string, ttlMs: number, now: number): Promise<IdempotencyVerdict> {
    const rec = await this.storage.get<IdempotencyRecord>(PREFIX + key);
    if (rec && !idempotencyExpired(rec, now)) {
      if (rec.fingerprint !== fingerprint) return { state: 'mismatch' };
      return rec.response ? { state: 'replay', response: rec.response } : { state: 'in_progress' };
    }
    const fresh: IdempotencyRecord = {
      fingerprint,
      response: null,
      created_at: now,
      expires_at: now + ttlMs,
    };
    await this.storage.put(PREFIX + key, fresh);
    return { state: 'new' };
  }

  async finish(key: string, fingerprint: string, response: StoredResponse): Promise<void> {
    const rec = await this.storage.get<IdempotencyRecord>(PREFIX + key);
    if (rec && rec.fingerprint === fingerprint) await this.storage.put(PREFIX + key, { ...rec, response });
  }

  /** The request failed: forget the key so a retry runs again (errors are not replayed). */
  async abandon(key: string, fingerprint: string): Promise<void> {
    const rec = await this.storage.get<IdempotencyRecord>(PREFIX + key);
    if (rec && rec.fingerprint === fingerprint && rec.response === null)
      await this.storage.delete(PREFIX + key);
  }

  /** Deletes the expired records; returns how many remain. */
  async sweep(now: number): Promise<number> {
    const all = await this.storage.list<IdempotencyRecord>({ prefix: PREFIX });
    const expired = [...all].filter(([, rec]) => idempotencyExpired(rec, now)).map(([k]) => k);
    for (let i = 0; i < expired.length; i += 128) await this.storage.delete(expired.slice(i, i + 128));
    return all.size - expired.length;
  }
}
