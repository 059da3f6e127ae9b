/**
 * @module jobs/tenant-object
 * One Durable Object per tenant (API key). Being one single-threaded object per key, it can count
 * without races. It holds four concerns, each in its own module under `tenant/`, and delegates:
 * - `rate-windows`: requests per fixed one-minute window, in two buckets;
 * - `job-slots`: the key's unfinished jobs, reconciled with the jobs' real states;
 * - `idempotency`: Idempotency-Key records (fingerprint and response) for 24 h;
 * - `upload-sessions`: resumable uploads bound to the key;
 * - `job-index`: the key's jobs and avatars for the lists (SQLite, newest first, keyset pages).
 * One alarm sweeps the stored concerns (expired idempotency keys, jobs that never reported their
 * end, abandoned uploads, index rows past retention) and re-arms while anything remains.
 */
import { DurableObject } from 'cloudflare:workers';
import { numberVar } from '../shared/env.js';
import { DEFAULT_UPLOAD_ABANDON_SEC } from '../shared/upload-session.js';
import type { WatchdogEnv } from './limits.js';
import { IdempotencyRecords, type IdempotencyVerdict, type StoredResponse } from './tenant/idempotency.js';
import { JobIndex, type IndexPage, type IndexQuery, type IndexRow } from './tenant/job-index.js';
import { JobSlots, type AdmitVerdict, type JobReader } from './tenant/job-slots.js';
import {
  newWebhookId,
  WebhookDeliveries,
  type BeginVerdict,
  type DeliveryRow,
  type NewDelivery,
  type SigningSecrets,
  type WebhookMessage,
} from './tenant/webhook-deliveries.js';
import type { WebhookAttempt, WebhookState } from '../contract/webhooks.js';
import { RateWindows, type RateBucket, type RateVerdict } from './tenant/rate-windows.js';
import { UploadSessions, type UploadSession } from './tenant/upload-sessions.js';

// The types its callers (API, job object) see.
export type { IdempotencyVerdict, StoredResponse } from './tenant/idempotency.js';
export type { AdmitVerdict, JobReader } from './tenant/job-slots.js';
export type { IndexList, IndexPage, IndexQuery, IndexRow } from './tenant/job-index.js';
export type {
  BeginVerdict,
  DeliveryRow,
  NewDelivery,
  SigningSecrets,
  WebhookMessage,
} from './tenant/webhook-deliveries.js';
export { signingSecretsAt } from './tenant/webhook-deliveries.js';

/** After a rotation, the previous signing secret also signs for this long. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60_000;
export type { RateBucket, RateVerdict } from './tenant/rate-windows.js';
export type { UploadSession } from './tenant/upload-sessions.js';

export const SWEEP_INTERVAL_MS = 60 * 60_000;

/**
 * A pending webhook delivery this long past its time with no attempt under way has lost its queue
 * message: the sweep sends it again (a message is normally taken within seconds; a lease lasts 30 s).
 */
export const WEBHOOK_OVERDUE_GRACE_MS = 60_000;

export interface TenantObjectEnv extends WatchdogEnv {
  MEDIA: R2Bucket;
  /** The jobs, to reconcile the slots with their real states. */
  JOB?: DurableObjectNamespace<JobReader>;
  UPLOAD_ABANDON_AFTER_SEC?: string;
  /** Webhook deliveries to try (`webhooks/deliver`). Unset: events are recorded but never sent. */
  WEBHOOKS?: Queue<WebhookMessage>;
}

export class TenantObject extends DurableObject<TenantObjectEnv> {
  private readonly rates = new RateWindows();
  private readonly slots: JobSlots;
  private readonly idempotency: IdempotencyRecords;
  private readonly uploads: UploadSessions;
  private readonly index: JobIndex;
  private readonly webhooks: WebhookDeliveries;
  /** The clock every window, slot and session time is read from (tests pin it instead of sleeping). */
  now: () => number = () => Date.now();

  constructor(ctx: DurableObjectState, env: TenantObjectEnv) {
    super(ctx, env);
    this.slots = new JobSlots(ctx.storage, env.JOB, env);
    this.idempotency = new IdempotencyRecords(ctx.storage);
    this.uploads = new UploadSessions(ctx.storage, env.MEDIA);
    this.index = new JobIndex(ctx.storage.sql);
    this.webhooks = new WebhookDeliveries(ctx.storage.sql, ctx.storage);
    ctx.blockConcurrencyWhile(() => this.slots.load());
  }

  // Rate windows ------------------------------------------------------------------------------

  /** Counts one request in `bucket`; refuses once `limit` is reached in the current minute. */
  async hit(bucket: RateBucket, limit: number, now = this.now()): Promise<RateVerdict> {
    return this.rates.hit(bucket, limit, now);
  }

  // Job slots ---------------------------------------------------------------------------------

  async admitJob(videoId: string, limit: number, now = this.now()): Promise<AdmitVerdict> {
    const verdict = await this.slots.admit(videoId, limit, now);
    if (verdict.allowed) await this.ensureSweep(now);
    return verdict;
  }

  async reconcileJobs(now = this.now()): Promise<number> {
    return this.slots.reconcile(now);
  }

  async releaseJob(videoId: string): Promise<boolean> {
    return this.slots.release(videoId);
  }

  async activeJobs(): Promise<string[]> {
    return this.slots.ids();
  }

  // The job and avatar index -------------------------------------------------------------------

  /** Records a job's (or avatar's) current row; idempotent, a later status replaces the earlier. */
  async indexJob(row: IndexRow): Promise<void> {
    this.index.put(row);
    if (row.expires_at !== null) await this.ensureSweep(this.now());
  }

  /** Forgets a deleted job or avatar, and its webhook deliveries (those pending stop). */
  async unindexJob(videoId: string): Promise<boolean> {
    this.webhooks.deleteFor(videoId);
    return this.index.delete(videoId);
  }

  async listIndex(query: IndexQuery, now = this.now()): Promise<IndexPage> {
    return this.index.page(query, now);
  }

  // Webhooks ----------------------------------------------------------------------------------

  /** Records an event's delivery (once per job and event type) and queues its first attempt. */
  async webhookEvent(d: NewDelivery, now = this.now()): Promise<DeliveryRow> {
    const { row, send } = this.webhooks.add(d, newWebhookId(), now);
    if (send) await this.env.WEBHOOKS?.send({ tenant: d.tenant, id: row.id, n: 0 });
    await this.sweepBy(now + WEBHOOK_OVERDUE_GRACE_MS);
    return row;
  }

  async webhookBegin(
    id: string,
    n: number | undefined,
    leaseMs: number,
    now = this.now(),
  ): Promise<BeginVerdict> {
    return this.webhooks.begin(id, n, now, leaseMs);
  }

  async webhookSetBody(id: string, body: string): Promise<void> {
    this.webhooks.setBody(id, body);
  }

  async webhookRecord(
    id: string,
    attempt: WebhookAttempt,
    state: WebhookState,
    nextAt: number | null,
  ): Promise<boolean> {
    const kept = this.webhooks.record(id, attempt, state, nextAt);
    if (kept && state === 'pending' && nextAt !== null) await this.sweepBy(nextAt + WEBHOOK_OVERDUE_GRACE_MS);
    return kept;
  }

  async webhookList(videoId: string): Promise<DeliveryRow[]> {
    return this.webhooks.list(videoId);
  }

  async webhookSecrets(): Promise<SigningSecrets> {
    return this.webhooks.secrets();
  }

  async webhookRotate(now = this.now()): Promise<SigningSecrets> {
    return this.webhooks.rotate(now, SECRET_OVERLAP_MS);
  }

  // Idempotency keys --------------------------------------------------------------------------

  async idempotencyKnown(key: string, now = this.now()): Promise<boolean> {
    return this.idempotency.known(key, now);
  }

  async idempotencyBegin(
    key: string,
    fingerprint: string,
    ttlMs: number,
    now = this.now(),
  ): Promise<IdempotencyVerdict> {
    const verdict = await this.idempotency.begin(key, fingerprint, ttlMs, now);
    if (verdict.state === 'new') await this.ensureSweep(now);
    return verdict;
  }

  async idempotencyFinish(key: string, fingerprint: string, response: StoredResponse): Promise<void> {
    await this.idempotency.finish(key, fingerprint, response);
  }

  async idempotencyAbandon(key: string, fingerprint: string): Promise<void> {
    await this.idempotency.abandon(key, fingerprint);
  }

  // Resumable uploads -------------------------------------------------------------------------

  async uploadPut(session: UploadSession): Promise<void> {
    await this.uploads.put(session);
    await this.ensureSweep(this.now());
  }

  async uploadGet(uploadId: string): Promise<UploadSession | null> {
    return this.uploads.get(uploadId);
  }

  async uploadRecordPart(
    uploadId: string,
    n: number,
    part: { etag: string; size: number },
  ): Promise<UploadSession | null> {
    return this.uploads.recordPart(uploadId, n, part, this.now());
  }

  /** Stores a new session unless the key already holds `maxSessions` (one step: a burst cannot pass it). */
  async uploadOpen(session: UploadSession, maxSessions: number): Promise<boolean> {
    if ((await this.uploads.usage()).sessions >= maxSessions) return false;
    await this.uploadPut(session);
    return true;
  }

  async uploadUsage(): Promise<{ sessions: number; bytes: number }> {
    return this.uploads.usage();
  }

  async uploadDelete(uploadId: string): Promise<void> {
    await this.uploads.delete(uploadId);
  }

  // The sweep ---------------------------------------------------------------------------------

  /**
   * Sweeps expired idempotency keys, stale job slots and abandoned uploads, and sends again the
   * queue message of a webhook delivery that lost it; re-arms while any remain.
   */
  override async alarm(): Promise<void> {
    const now = this.now();
    const idempotencyLeft = await this.idempotency.sweep(now);
    await this.slots.pruneStale(now);
    await this.slots.reconcile(now);
    const uploadsLeft = await this.uploads.sweep(now, this.abandonMs());
    const indexLeft = this.index.sweep(now);
    this.webhooks.sweep();
    for (const lost of this.webhooks.overdue(now, WEBHOOK_OVERDUE_GRACE_MS))
      await this.env.WEBHOOKS?.send(lost);
    const due = this.webhooks.nextDue();
    let next = now + this.sweepEveryMs();
    if (due !== null) next = Math.min(next, Math.max(now + 1_000, due + WEBHOOK_OVERDUE_GRACE_MS));
    if (idempotencyLeft + this.slots.size + uploadsLeft + indexLeft > 0 || due !== null)
      await this.ctx.storage.setAlarm(next);
  }

  private abandonMs(): number {
    return numberVar(this.env.UPLOAD_ABANDON_AFTER_SEC, DEFAULT_UPLOAD_ABANDON_SEC) * 1000;
  }

  private sweepEveryMs(): number {
    return Math.max(1_000, Math.min(SWEEP_INTERVAL_MS, this.abandonMs()));
  }

  /** Arms the sweep to run no later than `at` (an earlier alarm stays). */
  private async sweepBy(at: number): Promise<void> {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) await this.ctx.storage.setAlarm(at);
  }

  private async ensureSweep(now: number): Promise<void> {
    await this.sweepBy(now + this.sweepEveryMs());
  }
}
