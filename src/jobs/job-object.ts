/**
 * @module jobs/job-object
 * One Durable Object per `video_id`: the job's record, changed only through the transitions of
 * `state.ts`, and an alarm that watches over it (re-dispatch a lost job, fail a dead one).
 */
import { DurableObject } from 'cloudflare:workers';
import { watchdogLimits, type WatchdogEnv } from './limits.js';
import * as state from './state.js';
import type { JobRecord, NewJob } from './state.js';

const RECORD_KEY = 'job';

export interface JobObjectEnv extends WatchdogEnv {
  JOBS: Queue<JobMessage>;
}

/** The queue message that asks a consumer to run (or resume) a job. */
export interface JobMessage {
  video_id: string;
}

/** What a consumer gets when it claims a job. */
export type ClaimResult = { ok: true; job: JobRecord } | { ok: false; reason: 'terminal' | 'busy' | 'missing' };

export class JobObject extends DurableObject<JobObjectEnv> {
  private record: JobRecord | null = null;

  constructor(ctx: DurableObjectState, env: JobObjectEnv) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      this.record = (await ctx.storage.get<JobRecord>(RECORD_KEY)) ?? null;
    });
  }

  private async save(next: JobRecord): Promise<JobRecord> {
    this.record = next;
    await this.ctx.storage.put(RECORD_KEY, next);
    if (state.isTerminal(next.status)) await this.ctx.storage.deleteAlarm();
    return next;
  }

  private async armWatchdog(): Promise<void> {
    const limits = watchdogLimits(this.env);
    const every = Math.max(1_000, Math.min(limits.stallMs, limits.pendingRedispatchMs) / 2);
    await this.ctx.storage.setAlarm(Date.now() + every);
  }

  /** The record if `lease` still holds it; null tells the caller to stop (returned, not thrown: RPC loses error classes). */
  private held(lease: number): JobRecord | null {
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

  async get(): Promise<JobRecord | null> {
    return this.record;
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
    const alive = job.status === 'processing' && job.heartbeat_at !== null && Date.now() - job.heartbeat_at < stallMs;
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

  async complete(lease: number, pointers: { result_key?: string; output_key?: string }): Promise<JobRecord | null> {
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

  /** Removes every trace of the job (retention, DELETE). */
  async destroy(): Promise<void> {
    this.record = null;
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  async alarm(): Promise<void> {
    const job = this.record;
    if (!job || state.isTerminal(job.status)) return;
    const verdict = state.watchdog(job, Date.now(), watchdogLimits(this.env));
    switch (verdict.action) {
      case 'none':
        break;
      case 'fail':
        await this.save(state.fail(job, verdict.message, Date.now()));
        return;
      case 'redispatch':
        // A new lease makes any silent consumer stale; the message lets a live one resume.
        // heartbeat_at null: the next claim succeeds at once; updated_at restarts the stall clock.
        await this.save({ ...job, redispatches: job.redispatches + 1, lease: job.lease + 1, heartbeat_at: null, updated_at: Date.now() });
        await this.env.JOBS.send({ video_id: job.video_id });
        break;
      default:
        assertNever(verdict);
    }
    await this.armWatchdog();
  }
}

export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}
