/**
 * @module jobs/job-object
 * One Durable Object per `video_id`: the job's record, changed only through the transitions of
 * `state.ts`, and one alarm schedule that serves three purposes:
 * - while the job runs: the watchdog (re-dispatch a lost job, fail a dead one);
 * - once it ended: tell the tenant the job slot is free (retried until it succeeds), then
 *   retention: at `finished_at + RETENTION_DAYS` the job's R2 objects and the record are deleted;
 * - after DELETE of a running job: a tombstone purges again once a late consumer must have stopped.
 */
import { DurableObject } from 'cloudflare:workers';
import { retentionMs, watchdogLimits, type RetentionEnv, type WatchdogEnv } from './limits.js';
import * as state from './state.js';
import type { JobRecord, NewJob } from './state.js';
import { readJobRecord, type StoredJob } from './stored-job.js';
import type { TenantObject } from './tenant-object.js';

const RECORD_KEY = 'job';
/** True once the tenant was told the job ended (its concurrent-job slot is free). */
const RELEASED_KEY = 'released';
/** Left by DELETE of a running job: `{ video_id, purge_at }`. */
const TOMBSTONE_KEY = 'tombstone';
/** Retry interval when telling the tenant failed. */
export const RELEASE_RETRY_MS = 30_000;

export interface JobObjectEnv extends WatchdogEnv, RetentionEnv {
  JOBS: Queue<JobMessage>;
  MEDIA: R2Bucket;
  TENANT?: DurableObjectNamespace<TenantObject>;
}

interface Tombstone {
  video_id: string;
  source_keys: string[];
  purge_at: number;
}

/** The queue message that asks a consumer to run (or resume) a job. */
export interface JobMessage {
  video_id: string;
  /** Detached runs (local development) count their own attempts: the message is acked at once. */
  attempt?: number;
}

/** What a consumer gets when it claims a job. */
export type ClaimResult =
  { ok: true; job: state.JobIn<'processing'> } | { ok: false; reason: 'terminal' | 'busy' | 'missing' };

/** What the Job object needs from storage, handed in by the Worker entry (jobs does not import storage). */
export interface JobObjectPorts {
  /** Deletes a job's upload, intermediates, output and result from R2 (`storage/purge`). */
  purgeJobFiles(bucket: R2Bucket, videoId: string): Promise<void>;
  /**
   * Ends the work of a job the watchdog failed (`pipeline/consumer`): its intermediates, and its
   * processes in the media container, which a consumer taken for dead may have left running.
   */
  endJobWork(videoId: string): Promise<void>;
}

/**
 * The Job object's logic. The runtime constructs Durable Objects itself, so the Worker entry
 * (`src/index.ts`) exports a subclass whose constructor passes the ports.
 */
export class JobObject extends DurableObject<JobObjectEnv> {
  private record: JobRecord | null = null;
  /** Long-polls (`changedSince`) waiting for the record's status or progress to move. */
  private readonly watchers = new Set<() => void>();

  constructor(
    ctx: DurableObjectState,
    env: JobObjectEnv,
    private readonly ports: JobObjectPorts,
  ) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      // Records written before the union per status are flat: read either shape.
      this.record = readJobRecord(await ctx.storage.get<StoredJob>(RECORD_KEY));
      // A job that ended before retention existed has no alarm: give it one.
      if (this.record && state.hasEnded(this.record) && (await ctx.storage.getAlarm()) === null) {
        await ctx.storage.setAlarm(this.expiresAt(this.record));
      }
    });
  }

  private async save<J extends JobRecord>(next: J): Promise<J> {
    const before = this.record;
    const wasTerminal = before !== null && state.isTerminal(before.status);
    this.record = next;
    await this.ctx.storage.put(RECORD_KEY, next);
    // A long-poll can only wait on a record that exists (changedSince answers a missing one at once).
    if (before && state.visiblyChanged(before, next)) this.wakeWatchers();
    if (state.isTerminal(next.status) && !wasTerminal) await this.ended(next);
    // The key's list learns each new status (its end is recorded with the slot's release, retried).
    else if (!before || before.status !== next.status) await this.indexInTenant(next).catch(logIndexError);
    return next;
  }

  private wakeWatchers(): void {
    for (const wake of [...this.watchers]) wake();
  }

  /** The job reached completed/failed: free its slot, then wait for retention. */
  private async ended(job: JobRecord): Promise<void> {
    const released = await this.releaseSlot(job);
    const expiry = this.expiresAt(job);
    await this.ctx.storage.setAlarm(released ? expiry : Math.min(expiry, Date.now() + RELEASE_RETRY_MS));
  }

  private tenant(job: JobRecord): DurableObjectStub<TenantObject> | null {
    return this.env.TENANT ? this.env.TENANT.get(this.env.TENANT.idFromName(job.tenant)) : null;
  }

  /** The job's row in its key's list (`GET /api/jobs`). */
  private async indexInTenant(job: JobRecord): Promise<void> {
    await this.tenant(job)?.indexJob({
      video_id: job.video_id,
      kind: job.kind,
      status: job.status,
      progress: job.progress,
      created_at: job.created_at,
      finished_at: state.finishedAt(job),
      expires_at: state.hasEnded(job) ? this.expiresAt(job) : null,
    });
  }

  /** Queues the webhook of the job's end, when it asked for one (idempotent: one delivery per event). */
  private async announce(job: JobRecord): Promise<void> {
    if (!job.webhook) return;
    await this.tenant(job)?.webhookEvent({
      tenant: job.tenant,
      video_id: job.video_id,
      type: job.status === 'completed' ? 'job.completed' : 'job.failed',
      url: job.webhook.url,
      origin: job.webhook.origin,
    });
  }

  /**
   * Tells the tenant (idempotently) that the job no longer counts, records its end in the key's
   * list and queues its webhook; false when that failed (the alarm retries all three).
   */
  private async releaseSlot(job: JobRecord): Promise<boolean> {
    if (await this.ctx.storage.get<boolean>(RELEASED_KEY)) return true;
    try {
      await this.indexInTenant(job);
      await this.announce(job);
      await this.tenant(job)?.releaseJob(job.video_id);
      await this.ctx.storage.put(RELEASED_KEY, true);
      return true;
    } catch (err) {
      console.error(
        JSON.stringify({ level: 'warn', video_id: job.video_id, action: 'release', error: String(err) }),
      );
      return false;
    }
  }

  private expiresAt(job: JobRecord): number {
    return state.endedOrUpdatedAt(job) + retentionMs(this.env);
  }

  /** R2 keys the job owns outside its own prefixes (a resumable upload it took over); never an avatar. */
  private static ownedSources(job: JobRecord): string[] {
    return [job.source, job.audio]
      .filter((s) => s !== null && !s.key.startsWith('avatars/'))
      .map((s) => s!.key);
  }

  /** Deletes the job's R2 objects and every trace of the object itself, its row in the key's list first. */
  private async purge(videoId: string, sourceKeys: string[]): Promise<void> {
    // Best effort: a row left behind (the tenant unreachable) is hidden and swept at its expiry.
    const job = this.record;
    if (job) await this.tenant(job)?.unindexJob(videoId).catch(logIndexError);
    await this.ports.purgeJobFiles(this.env.MEDIA, videoId);
    if (sourceKeys.length) await this.env.MEDIA.delete(sourceKeys);
    this.record = null;
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.wakeWatchers();
  }

  private async armWatchdog(): Promise<void> {
    const limits = watchdogLimits(this.env);
    const every = Math.max(1_000, Math.min(limits.stallMs, limits.pendingRedispatchMs) / 2);
    await this.ctx.storage.setAlarm(Date.now() + every);
  }

  /** The record if `lease` still holds it; null tells the caller to stop (returned, not thrown: RPC loses error classes). */
  private held(lease: number): state.JobIn<'processing'> | null {
    const job = this.record;
    return job && job.lease === lease && job.status === 'processing' ? job : null;
  }

  /** Creates the job; idempotent for the same id. */
  async create(init: NewJob): Promise<JobRecord> {
    if (this.record) return this.record;
    const job = await this.save(state.createJob(init, Date.now()));
    await this.armWatchdog();
    return job;
  }

  /** The record; null when there is none or its retention has passed (the alarm may run late). */
  async get(): Promise<JobRecord | null> {
    const job = this.record;
    if (job && state.isTerminal(job.status) && Date.now() >= this.expiresAt(job)) return null;
    return job;
  }

  /**
   * The long-poll behind `GET /api/status/{id}?wait=`: the record once it differs from `seen` (what
   * the caller read with `get`) as `state.longPollRemainingMs` rules, or when `waitMs` has passed.
   * Comparing with `seen` inside this one call means a change between the caller's read and its
   * wait is never missed.
   */
  async changedSince(seen: state.VisibleState, waitMs: number): Promise<JobRecord | null> {
    const start = Date.now();
    const remaining = () => state.longPollRemainingMs(seen, this.record, Date.now() - start, waitMs);
    for (let ms = remaining(); ms > 0; ms = remaining()) await this.nextChange(ms);
    return this.get();
  }

  /** Resolves at the record's next visible change, or after `ms`. */
  private nextChange(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.watchers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.watchers.add(wake);
    });
  }

  /**
   * Takes the job for one consumer run. A second delivery while a live consumer holds it is
   * answered `busy` (at-least-once delivery must not run the work twice at the same time).
   */
  async claim(opts: { force?: boolean } = {}): Promise<ClaimResult> {
    const job = this.record;
    if (!job) return { ok: false, reason: 'missing' };
    if (state.isTerminal(job.status)) return { ok: false, reason: 'terminal' };
    const { stallMs } = watchdogLimits(this.env);
    const alive =
      job.status === 'processing' && job.heartbeat_at !== null && Date.now() - job.heartbeat_at < stallMs;
    if (alive && !opts.force) return { ok: false, reason: 'busy' };
    const next = await this.save(state.claim(job, Date.now()));
    await this.armWatchdog();
    return { ok: true, job: next };
  }

  async progress(lease: number, progress: number, stage: string | null): Promise<JobRecord | null> {
    const job = this.held(lease);
    return job && this.save(state.advance(job, progress, stage, Date.now()));
  }

  async heartbeat(lease: number): Promise<boolean> {
    const job = this.held(lease);
    if (job) await this.save(state.heartbeat(job, Date.now()));
    return job !== null;
  }

  async complete(lease: number, pointers: state.CompletionPointers): Promise<JobRecord | null> {
    const job = this.held(lease);
    return job && this.save(state.complete(job, pointers, Date.now()));
  }

  /** Fails the job. With a lease, only its holder may; without, anyone (dead-letter path, watchdog). */
  async fail(message: string, lease?: number): Promise<JobRecord | null> {
    const job = lease === undefined ? this.record : this.held(lease);
    if (!job || state.isTerminal(job.status)) return job;
    return this.save(state.fail(job, message, Date.now()));
  }

  async noteError(message: string): Promise<void> {
    if (this.record && !state.isTerminal(this.record.status))
      await this.save(state.noteError(this.record, message, Date.now()));
  }

  /**
   * The holder gives the job back after a transient failure, before its message is retried:
   * notes the error and clears the heartbeat, so the retried delivery can claim it at once
   * (a recent heartbeat would answer it `busy`, and the job would sit until the watchdog).
   * `updated_at` restarts the watchdog's stall clock for the backoff. False when `lease` is stale.
   */
  async release(lease: number, message: string): Promise<boolean> {
    const job = this.held(lease);
    if (!job) return false;
    await this.save(state.giveBack(job, message, Date.now()));
    return true;
  }

  /**
   * Removes every trace of the job (DELETE): its R2 objects and its record. A running job is
   * failed first (its consumer then loses the lease and stops); a tombstone purges once more
   * after the stall timeout, in case that consumer wrote an output before noticing.
   */
  async destroy(): Promise<boolean> {
    const job = this.record;
    if (!job) return false;
    const running = !state.isTerminal(job.status);
    if (running) await this.save(state.fail(job, 'the job was deleted', Date.now()));
    const sources = JobObject.ownedSources(job);
    await this.purge(job.video_id, sources);
    if (running) {
      const tombstone: Tombstone = {
        video_id: job.video_id,
        source_keys: sources,
        purge_at: Date.now() + watchdogLimits(this.env).stallMs + 60_000,
      };
      await this.ctx.storage.put(TOMBSTONE_KEY, tombstone);
      await this.ctx.storage.setAlarm(tombstone.purge_at);
    }
    return true;
  }

  /** When the job's files will be deleted (ms since epoch); null while it runs or when unknown. */
  async expiresAtMs(): Promise<number | null> {
    return this.record && state.isTerminal(this.record.status) ? this.expiresAt(this.record) : null;
  }

  /** One schedule, three purposes: which one runs depends on what the object holds now. */
  async alarm(): Promise<void> {
    const job = this.record;
    if (!job) return this.purgeAfterDelete();
    if (state.isTerminal(job.status)) return this.releaseThenRetain(job);
    return this.watchRunningJob(job);
  }

  /** After DELETE of a running job: purge again once a late consumer must have stopped writing. */
  private async purgeAfterDelete(): Promise<void> {
    const tombstone = await this.ctx.storage.get<Tombstone>(TOMBSTONE_KEY);
    if (!tombstone) return;
    if (Date.now() >= tombstone.purge_at) await this.purge(tombstone.video_id, tombstone.source_keys);
    else await this.ctx.storage.setAlarm(tombstone.purge_at);
  }

  /** An ended job: free its slot at the tenant (retried until it succeeds), then delete it at retention. */
  private async releaseThenRetain(job: JobRecord): Promise<void> {
    const released = await this.releaseSlot(job);
    const expiry = this.expiresAt(job);
    if (Date.now() >= expiry) return this.purge(job.video_id, JobObject.ownedSources(job));
    await this.ctx.storage.setAlarm(released ? expiry : Math.min(expiry, Date.now() + RELEASE_RETRY_MS));
  }

  /** The watchdog of a running job: re-dispatch a lost one, fail a dead one. */
  private async watchRunningJob(job: JobRecord): Promise<void> {
    const verdict = state.watchdog(job, Date.now(), watchdogLimits(this.env));
    switch (verdict.action) {
      case 'none':
        break;
      case 'fail':
        // save() sees the terminal transition and schedules release and retention.
        await this.save(state.fail(job, verdict.message, Date.now()));
        // Best effort: a container that does not answer drops the job's source at its TTL.
        await this.ports.endJobWork(job.video_id).catch(() => {});
        return;
      case 'redispatch':
        // The message lets a live consumer resume (under the new lease).
        await this.save(state.redispatch(job, Date.now()));
        await this.env.JOBS.send({ video_id: job.video_id });
        break;
      default:
        assertNever(verdict);
    }
    await this.armWatchdog();
  }
}

function logIndexError(err: unknown): void {
  console.error(JSON.stringify({ level: 'warn', action: 'index', error: String(err) }));
}

export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}
