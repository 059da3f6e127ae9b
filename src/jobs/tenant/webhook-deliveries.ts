/**
 * @module jobs/tenant/webhook-deliveries
 * The key's webhook deliveries (one per event: a job's end, an avatar's registration) in a SQLite
 * table of its tenant object, and its signing secrets. The tenant object is where a delivery's
 * state lives so that it is changed one call at a time: a delivery is leased to one consumer at a
 * time (a duplicate queue message finds it leased or done and drops), every attempt is appended to
 * its log, and deleting a job deletes its deliveries, which stops those still pending (their next
 * message finds nothing).
 */
import type { WebhookAttempt, WebhookEvent, WebhookState } from '../../contract/webhooks.js';
import { base64url } from '../../shared/ids.js';

/** The queue message that asks a consumer to try (or retry) one delivery. */
export interface WebhookMessage {
  tenant: string;
  id: string;
  /**
   * The attempts the delivery had when this message was sent: a message for an earlier round is
   * stale. Absent on messages queued by a version without rounds (not checked then).
   */
  n?: number;
}

const SECRET_BYTES = 32;
/** A new signing secret: `whsec_` + base64 of 32 random bytes. */
export const newWebhookSecret = () =>
  `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(SECRET_BYTES))))}`;
/** A delivery's `webhook-id`. */
export const newWebhookId = () => `msg_${base64url(crypto.getRandomValues(new Uint8Array(16)))}`;

/** What the tenant stores of one delivery. Times in ms since the epoch. */
export interface DeliveryRow {
  id: string;
  tenant: string;
  video_id: string;
  type: WebhookEvent;
  url: string;
  /** Where the job's download link points (the API's origin when it was created, or STORAGE_URL). */
  origin: string;
  state: WebhookState;
  /** The JSON body, fixed at the first attempt so that every retry sends the same bytes. */
  body: string | null;
  created_at: number;
  next_at: number | null;
  attempts: WebhookAttempt[];
}

export type NewDelivery = Pick<DeliveryRow, 'tenant' | 'video_id' | 'type' | 'url' | 'origin'> & {
  body?: string | null;
};

/** `begin`'s answer: go (the delivery, now leased), wait until `due_at`, or nothing to do. */
export type BeginVerdict = { go: DeliveryRow } | { due_at: number } | null;

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS webhook_deliveries (
     id TEXT PRIMARY KEY,
     tenant TEXT NOT NULL,
     video_id TEXT NOT NULL,
     type TEXT NOT NULL,
     url TEXT NOT NULL,
     origin TEXT NOT NULL,
     state TEXT NOT NULL,
     body TEXT,
     created_at INTEGER NOT NULL,
     next_at INTEGER,
     lease_until INTEGER NOT NULL DEFAULT 0,
     attempts TEXT NOT NULL DEFAULT '[]',
     UNIQUE (video_id, type)
   )`,
];

const SECRET_KEY = 'webhook:secret';

export interface SigningSecrets {
  current: string;
  previous: string | null;
  previous_until: number | null;
}

type Raw = Omit<DeliveryRow, 'attempts'> & { attempts: string; lease_until: number };
const parse = (r: Raw): DeliveryRow => {
  const { lease_until: _lease, ...rest } = r;
  return { ...rest, attempts: JSON.parse(r.attempts) as WebhookAttempt[] };
};

export class WebhookDeliveries {
  constructor(
    private readonly sql: SqlStorage,
    private readonly storage: DurableObjectStorage,
  ) {
    for (const statement of SCHEMA) sql.exec(statement);
  }

  private row(id: string): Raw | null {
    return (this.sql.exec('SELECT * FROM webhook_deliveries WHERE id = ?', id).toArray()[0] ??
      null) as Raw | null;
  }

  /**
   * Records the event's delivery, once per (video_id, type): a repeat returns the same row (the
   * Job object repeats it until it succeeds). `send` is true while it has never been tried, so that
   * a repeat whose first queue message may have been lost sends one again (the lease drops extras).
   */
  add(d: NewDelivery, id: string, now: number): { row: DeliveryRow; send: boolean } {
    this.sql.exec(
      `INSERT INTO webhook_deliveries (id, tenant, video_id, type, url, origin, state, body, created_at, next_at)
       VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?) ON CONFLICT (video_id, type) DO NOTHING`,
      id,
      d.tenant,
      d.video_id,
      d.type,
      d.url,
      d.origin,
      d.body ?? null,
      now,
      now,
    );
    const raw = this.sql
      .exec('SELECT * FROM webhook_deliveries WHERE video_id = ? AND type = ?', d.video_id, d.type)
      .toArray()[0] as Raw;
    const row = parse(raw);
    return { row, send: row.state === 'pending' && row.attempts.length === 0 };
  }

  /**
   * Leases a due, pending delivery to one consumer for `leaseMs`, for the message of round `n` (the
   * attempts made when it was sent). A message of an earlier round is stale (null: drop it); one that
   * finds the delivery leased waits for the lease to end (a consumer that died mid-attempt is
   * replaced then), so duplicates never send twice and never multiply.
   */
  begin(id: string, n: number | undefined, now: number, leaseMs: number): BeginVerdict {
    const raw = this.row(id);
    if (!raw || raw.state !== 'pending') return null;
    if (n !== undefined && (JSON.parse(raw.attempts) as unknown[]).length !== n) return null;
    if (raw.lease_until > now) return { due_at: raw.lease_until };
    if (raw.next_at !== null && raw.next_at > now + 1_000) return { due_at: raw.next_at };
    this.sql.exec('UPDATE webhook_deliveries SET lease_until = ? WHERE id = ?', now + leaseMs, id);
    return { go: parse(raw) };
  }

  setBody(id: string, body: string): void {
    this.sql.exec('UPDATE webhook_deliveries SET body = ? WHERE id = ? AND body IS NULL', body, id);
  }

  /** Appends an attempt and the state it leaves; false when the delivery is gone (its job was deleted). */
  record(id: string, attempt: WebhookAttempt, state: WebhookState, nextAt: number | null): boolean {
    const raw = this.row(id);
    if (!raw) return false;
    const attempts = [...(JSON.parse(raw.attempts) as WebhookAttempt[]), attempt];
    this.sql.exec(
      'UPDATE webhook_deliveries SET attempts = ?, state = ?, next_at = ?, lease_until = 0 WHERE id = ?',
      JSON.stringify(attempts),
      state,
      nextAt,
      id,
    );
    return true;
  }

  list(videoId: string): DeliveryRow[] {
    return (
      this.sql
        .exec('SELECT * FROM webhook_deliveries WHERE video_id = ? ORDER BY created_at', videoId)
        .toArray() as unknown as Raw[]
    ).map(parse);
  }

  deleteFor(videoId: string): void {
    this.sql.exec('DELETE FROM webhook_deliveries WHERE video_id = ?', videoId);
  }

  /**
   * The messages of pending deliveries due more than `graceMs` ago and not leased: their queue
   * message is lost (a send that failed after the attempt was recorded, a consumer that died and
   * was not retried). Sending them again is safe: `begin` leases a round to one message.
   */
  overdue(now: number, graceMs: number): WebhookMessage[] {
    const rows = this.sql
      .exec(
        `SELECT id, tenant, attempts FROM webhook_deliveries
         WHERE state = 'pending' AND next_at IS NOT NULL AND next_at < ? AND lease_until < ?`,
        now - graceMs,
        now,
      )
      .toArray() as unknown as Array<Pick<Raw, 'id' | 'tenant' | 'attempts'>>;
    return rows.map((r) => ({
      tenant: r.tenant,
      id: r.id,
      n: (JSON.parse(r.attempts) as unknown[]).length,
    }));
  }

  /** When the earliest pending delivery is due; null when none is pending. */
  nextDue(): number | null {
    const row = this.sql
      .exec(`SELECT MIN(next_at) AS due FROM webhook_deliveries WHERE state = 'pending'`)
      .toArray()[0] as { due: number | null } | undefined;
    return row?.due ?? null;
  }

  /** Deletes the deliveries of jobs no longer in the key's index (retention passed). */
  sweep(): void {
    this.sql.exec('DELETE FROM webhook_deliveries WHERE video_id NOT IN (SELECT video_id FROM job_index)');
  }

  // Signing secrets ---------------------------------------------------------------------------

  async secrets(): Promise<SigningSecrets> {
    const stored = await this.storage.get<SigningSecrets>(SECRET_KEY);
    if (stored) return stored;
    const fresh: SigningSecrets = { current: newWebhookSecret(), previous: null, previous_until: null };
    await this.storage.put(SECRET_KEY, fresh);
    return fresh;
  }

  /** A new current secret; the old one stays valid (also signs) for `overlapMs`. */
  async rotate(now: number, overlapMs: number): Promise<SigningSecrets> {
    const old = await this.secrets();
    const next: SigningSecrets = {
      current: newWebhookSecret(),
      previous: old.current,
      previous_until: now + overlapMs,
    };
    await this.storage.put(SECRET_KEY, next);
    return next;
  }
}

/** Pure: the secrets that sign at `now`: the current one, and the previous one within its overlap. */
export const signingSecretsAt = (s: SigningSecrets, now: number): string[] =>
  s.previous && s.previous_until !== null && now < s.previous_until ? [s.current, s.previous] : [s.current];
