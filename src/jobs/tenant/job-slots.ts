/**
 * @module jobs/tenant/job-slots
 * A key's unfinished jobs (pending + processing): admitted by the API once the form is read and
 * valid, released by the job object when the job ends (idempotent: a release is a delete), and
 * reconciled with the jobs' real states when the key is at its limit and at each sweep. Kept in
 * memory and mirrored in the tenant's storage under `job:<video_id>` → admitted-at.
 */
import { watchdogLimits, type WatchdogEnv } from '../limits.js';

/**
 * A slot is taken just before its job is created (the form was read and valid); one whose job does
 * not exist this long after was left by a request that died in between.
 */
export const ADMISSION_GRACE_MS = 60_000;

const PREFIX = 'job:';

export interface AdmitVerdict {
  allowed: boolean;
  active: number;
  limit: number;
}

/**
 * What the tenant reads of a Job object (its `get()`): a structural view, so that the two Durable
 * Object classes do not import each other (the Job object calls `releaseJob` on the tenant).
 */
export type JobReader = Rpc.DurableObjectBranded & { get(): Promise<{ status: string } | null> };

export class JobSlots {
  /** video_id → when it was admitted. */
  private readonly active = new Map<string, number>();

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly jobs: DurableObjectNamespace<JobReader> | undefined,
    private readonly watchdog: WatchdogEnv,
  ) {}

  /** Reads the stored slots (in the object's constructor, under `blockConcurrencyWhile`). */
  async load(): Promise<void> {
    for (const [key, at] of await this.storage.list<number>({ prefix: PREFIX }))
      this.active.set(key.slice(PREFIX.length), at);
  }

  get size(): number {
    return this.active.size;
  }

  ids(): string[] {
    return [...this.active.keys()];
  }

  /**
   * Takes a slot for `videoId`; idempotent for the same id. At the limit, the slots are first
   * reconciled with the jobs' real states (a release that never arrived must not lock the key).
   * The check and the take run with no await between them: atomic.
   */
  async admit(videoId: string, limit: number, now: number): Promise<AdmitVerdict> {
    await this.pruneStale(now);
    if (this.active.has(videoId)) return { allowed: true, active: this.active.size, limit };
    if (this.active.size >= limit) await this.reconcile(now);
    if (this.active.has(videoId)) return { allowed: true, active: this.active.size, limit };
    if (this.active.size >= limit) return { allowed: false, active: this.active.size, limit };
    this.active.set(videoId, now);
    await this.storage.put(PREFIX + videoId, now);
    return { allowed: true, active: this.active.size, limit };
  }

  /**
   * Frees the slots whose job has ended (completed, failed, deleted) or never came to exist: the
   * count of unfinished jobs is the jobs' own states, whatever message was lost on the way.
   * Returns how many slots were freed.
   */
  async reconcile(now: number): Promise<number> {
    const jobs = this.jobs;
    if (!jobs) return 0;
    const verdicts = await Promise.all(
      [...this.active].map(async ([id, at]) => {
        try {
          const job = (await jobs.get(jobs.idFromName(id)).get()) as { status: string } | null;
          const ended = job
            ? job.status === 'completed' || job.status === 'failed'
            : now - at > ADMISSION_GRACE_MS;
          return ended ? id : null;
        } catch {
          return null; // unknown: keep the slot
        }
      }),
    );
    return this.free(verdicts.filter((id): id is string => id !== null));
  }

  /** Frees the slot of a job that ended (or was never created). Idempotent. */
  async release(videoId: string): Promise<boolean> {
    return (await this.free([videoId])) > 0;
  }

  /** A job that never told us it ended (lost RPC) is freed once the watchdog must have ended it. */
  async pruneStale(now: number): Promise<void> {
    const w = watchdogLimits(this.watchdog);
    const staleMs =
      (w.maxRedispatches + 1) * Math.max(w.pendingRedispatchMs, w.stallMs) + w.maxRunMs + 10 * 60_000;
    await this.free([...this.active].filter(([, at]) => now - at > staleMs).map(([id]) => id));
  }

  private async free(ids: string[]): Promise<number> {
    const freed = ids.filter((id) => this.active.delete(id));
    if (freed.length) await this.storage.delete(freed.map((id) => PREFIX + id));
    return freed.length;
  }
}
