/**
 * @module jobs/tenant-object
 * One Durable Object per tenant (API key). Being one single-threaded object per key, it can
 * count without races:
 * - requests per fixed one-minute window, in two buckets (`api`, and `status` for cheap polling);
 *   the windows live in memory only: an evicted object forgets at most one minute of counts;
 * - the key's unfinished jobs (pending + processing): admitted by the API once the form is read
 *   and valid, released by the JobObject when the job ends (idempotent: a release is a delete),
 *   and reconciled with the jobs' real states when the key is at its limit and at each sweep;
 * - Idempotency-Key records: fingerprint of the request and the response it got, for 24 h;
 * - resumable uploads bound to the key (see `storage/resumable.ts`).
 * An alarm sweeps expired idempotency keys, jobs that never reported their end, and abandoned uploads.
 */
import { DurableObject } from 'cloudflare:workers';
import { watchdogLimits, type WatchdogEnv } from './limits.js';

export const RATE_WINDOW_MS = 60_000;
/** An idempotency record whose request never finished (crash mid-upload) stops blocking after this. */
export const IDEMPOTENCY_PENDING_MS = 60 * 60_000;
export const SWEEP_INTERVAL_MS = 60 * 60_000;
/**
 * A slot is taken just before its job is created (the form was read and valid); one whose job does
 * not exist this long after was left by a request that died in between.
 */
export const ADMISSION_GRACE_MS = 60_000;

const JOB_PREFIX = 'job:';
const IDEM_PREFIX = 'idem:';
const UPLOAD_PREFIX = 'upload:';

export type RateBucket = 'api' | 'status';

export interface RateVerdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  reset_sec: number;
}

export interface AdmitVerdict {
  allowed: boolean;
  active: number;
  limit: number;
}

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

/** A resumable upload: an R2 multipart upload bound to this tenant. */
export interface UploadSession {
  upload_id: string;
  r2_upload_id: string;
  key: string;
  part_bytes: number;
  max_bytes: number;
  parts: Record<string, { etag: string; size: number }>;
  created_at: number;
  touched_at: number;
  completed: { size: number; file_id: string } | null;
}

/**
 * What the tenant reads of a Job object (its `get()`): a structural view, so that the two Durable
 * Object classes do not import each other (the Job object calls `releaseJob` here).
 */
export type JobReader = Rpc.DurableObjectBranded & { get(): Promise<{ status: string } | null> };

export interface TenantObjectEnv extends WatchdogEnv {
  MEDIA: R2Bucket;
  /** The jobs, to reconcile the slots with their real states. */
  JOB?: DurableObjectNamespace<JobReader>;
  UPLOAD_ABANDON_AFTER_SEC?: string;
}

export class TenantObject extends DurableObject<TenantObjectEnv> {
  private readonly windows = new Map<RateBucket, { start: number; count: number }>();
  /** video_id → when it was admitted. */
  private readonly active = new Map<string, number>();
  /** The clock every window, slot and session time is read from (tests pin it instead of sleeping). */
  now: () => number = () => Date.now();

  constructor(ctx: DurableObjectState, env: TenantObjectEnv) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      const jobs = await ctx.storage.list<number>({ prefix: JOB_PREFIX });
      for (const [key, at] of jobs) this.active.set(key.slice(JOB_PREFIX.length), at);
    });
  }

  /** Counts one request in `bucket`; refuses once `limit` is reached in the current minute. */
  async hit(bucket: RateBucket, limit: number, now = this.now()): Promise<RateVerdict> {
    const start = now - (now % RATE_WINDOW_MS);
    let window = this.windows.get(bucket);
    if (!window || window.start !== start) {
      window = { start, count: 0 };
      this.windows.set(bucket, window);
    }
    const reset_sec = Math.max(1, Math.ceil((start + RATE_WINDOW_MS - now) / 1000));
    if (window.count >= limit) return { allowed: false, limit, remaining: 0, reset_sec };
    window.count++;
    return { allowed: true, limit, remaining: limit - window.count, reset_sec };
  }

  /**
   * Takes a concurrent-job slot for `videoId`; idempotent for the same id. At the limit, the slots
   * are first reconciled with the jobs' real states (a release that never arrived must not lock
   * the key). The check and the take run with no await between them: atomic.
   */
  async admitJob(videoId: string, limit: number, now = this.now()): Promise<AdmitVerdict> {
    await this.pruneStaleJobs(now);
    if (this.active.has(videoId)) return { allowed: true, active: this.active.size, limit };
    if (this.active.size >= limit) await this.reconcileJobs(now);
    if (this.active.has(videoId)) return { allowed: true, active: this.active.size, limit };
    if (this.active.size >= limit) return { allowed: false, active: this.active.size, limit };
    this.active.set(videoId, now);
    await this.ctx.storage.put(JOB_PREFIX + videoId, now);
    await this.ensureSweep(now);
    return { allowed: true, active: this.active.size, limit };
  }

  /**
   * Frees the slots whose job has ended (completed, failed, deleted) or never came to exist: the
   * count of unfinished jobs is the jobs' own states, whatever message was lost on the way.
   * Returns how many slots were freed.
   */
  async reconcileJobs(now = this.now()): Promise<number> {
    const jobs = this.env.JOB;
    if (!jobs) return 0;
    const verdicts = await Promise.all(
      [...this.active].map(async ([id, at]) => {
        try {
          const job = (await jobs.get(jobs.idFromName(id)).get()) as { status: string } | null;
          const ended = job ? job.status === 'completed' || job.status === 'failed' : now - at > ADMISSION_GRACE_MS;
          return ended ? id : null;
        } catch {
          return null; // unknown: keep the slot
        }
      }),
    );
    const freed = verdicts.filter((id): id is string => id !== null);
    for (const id of freed) this.active.delete(id);
    if (freed.length) await this.ctx.storage.delete(freed.map((id) => JOB_PREFIX + id));
    return freed.length;
  }

  /** Frees the slot of a job that ended (or was never created). Idempotent. */
  async releaseJob(videoId: string): Promise<boolean> {
    if (!this.active.delete(videoId)) return false;
    await this.ctx.storage.delete(JOB_PREFIX + videoId);
    return true;
  }

  async activeJobs(): Promise<string[]> {
    return [...this.active.keys()];
  }

  /** Whether an unexpired record exists for the key (the API then skips the job-slot check). */
  async idempotencyKnown(key: string, now = this.now()): Promise<boolean> {
    const rec = await this.ctx.storage.get<IdempotencyRecord>(IDEM_PREFIX + key);
    return rec !== undefined && !idempotencyExpired(rec, now);
  }

  /**
   * Starts a request under an Idempotency-Key: `new` (go ahead, then `idempotencyFinish`),
   * `replay` (answer the stored response), `mismatch` (the key was used for another request),
   * `in_progress` (the same request is still running).
   */
  async idempotencyBegin(key: string, fingerprint: string, ttlMs: number, now = this.now()): Promise<IdempotencyVerdict> {
    const rec = await this.ctx.storage.get<IdempotencyRecord>(IDEM_PREFIX + key);
    if (rec && !idempotencyExpired(rec, now)) {
      if (rec.fingerprint !== fingerprint) return { state: 'mismatch' };
      return rec.response ? { state: 'replay', response: rec.response } : { state: 'in_progress' };
    }
    const fresh: IdempotencyRecord = { fingerprint, response: null, created_at: now, expires_at: now + ttlMs };
    await this.ctx.storage.put(IDEM_PREFIX + key, fresh);
    await this.ensureSweep(now);
    return { state: 'new' };
  }

  async idempotencyFinish(key: string, fingerprint: string, response: StoredResponse): Promise<void> {
    const rec = await this.ctx.storage.get<IdempotencyRecord>(IDEM_PREFIX + key);
    if (rec && rec.fingerprint === fingerprint) await this.ctx.storage.put(IDEM_PREFIX + key, { ...rec, response });
  }

  /** The request failed: forget the key so a retry runs again (errors are not replayed). */
  async idempotencyAbandon(key: string, fingerprint: string): Promise<void> {
    const rec = await this.ctx.storage.get<IdempotencyRecord>(IDEM_PREFIX + key);
    if (rec && rec.fingerprint === fingerprint && rec.response === null) await this.ctx.storage.delete(IDEM_PREFIX + key);
  }

  // Resumable uploads -------------------------------------------------------------------------

  async uploadPut(session: UploadSession): Promise<void> {
    await this.ctx.storage.put(UPLOAD_PREFIX + session.upload_id, session);
    await this.ensureSweep(this.now());
  }

  async uploadGet(uploadId: string): Promise<UploadSession | null> {
    return (await this.ctx.storage.get<UploadSession>(UPLOAD_PREFIX + uploadId)) ?? null;
  }

  /** Records one uploaded part atomically (parts may arrive in parallel). */
  async uploadRecordPart(uploadId: string, n: number, part: { etag: string; size: number }): Promise<UploadSession | null> {
    const session = await this.uploadGet(uploadId);
    if (!session || session.completed) return null;
    const next = { ...session, parts: { ...session.parts, [String(n)]: part }, touched_at: this.now() };
    await this.ctx.storage.put(UPLOAD_PREFIX + uploadId, next);
    return next;
  }

  async uploadDelete(uploadId: string): Promise<void> {
    await this.ctx.storage.delete(UPLOAD_PREFIX + uploadId);
  }

  /** Sweeps expired idempotency keys, stale job slots and abandoned uploads. */
  override async alarm(): Promise<void> {
    const now = this.now();
    let remaining = 0;
    const idem = await this.ctx.storage.list<IdempotencyRecord>({ prefix: IDEM_PREFIX });
    const expired = [...idem].filter(([, rec]) => idempotencyExpired(rec, now)).map(([k]) => k);
    for (let i = 0; i < expired.length; i += 128) await this.ctx.storage.delete(expired.slice(i, i + 128));
    remaining += idem.size - expired.length;
    await this.pruneStaleJobs(now);
    await this.reconcileJobs(now);
    remaining += this.active.size;
    remaining += await this.abortAbandonedUploads(now);
    if (remaining > 0) await this.ctx.storage.setAlarm(now + this.sweepEveryMs());
  }

  private async abortAbandonedUploads(now: number): Promise<number> {
    const abandonMs = numberOr(this.env.UPLOAD_ABANDON_AFTER_SEC, 24 * 3600) * 1000;
    const uploads = await this.ctx.storage.list<UploadSession>({ prefix: UPLOAD_PREFIX });
    let kept = 0;
    for (const [key, session] of uploads) {
      if (now - session.touched_at < abandonMs) {
        kept++;
        continue;
      }
      if (session.completed) await this.env.MEDIA.delete(session.key).catch(() => {});
      else await this.env.MEDIA.resumeMultipartUpload(session.key, session.r2_upload_id).abort().catch(() => {});
      await this.ctx.storage.delete(key);
    }
    return kept;
  }

  /** A job that never told us it ended (lost RPC) is freed once the watchdog must have ended it. */
  private async pruneStaleJobs(now: number): Promise<void> {
    const w = watchdogLimits(this.env);
    const staleMs = (w.maxRedispatches + 1) * Math.max(w.pendingRedispatchMs, w.stallMs) + w.maxRunMs + 10 * 60_000;
    const stale = [...this.active].filter(([, at]) => now - at > staleMs).map(([id]) => id);
    for (const id of stale) this.active.delete(id);
    if (stale.length) await this.ctx.storage.delete(stale.map((id) => JOB_PREFIX + id));
  }

  private sweepEveryMs(): number {
    const abandonMs = numberOr(this.env.UPLOAD_ABANDON_AFTER_SEC, 24 * 3600) * 1000;
    return Math.max(1_000, Math.min(SWEEP_INTERVAL_MS, abandonMs));
  }

  private async ensureSweep(now: number): Promise<void> {
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(now + this.sweepEveryMs());
  }
}

export const idempotencyExpired = (rec: { response: unknown; created_at: number; expires_at: number }, now: number) =>
  rec.expires_at <= now || (rec.response === null && now - rec.created_at > IDEMPOTENCY_PENDING_MS);

function numberOr(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value.trim() !== '' && Number.isFinite(n) && n >= 0 ? n : fallback;
}
