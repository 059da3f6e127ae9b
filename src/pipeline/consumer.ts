/**
 * @module pipeline/consumer
 * The queue handler. Main queue: run each job, retry transient failures with backoff, fail
 * unrecoverable ones at once. Dead-letter queue: the job failed too many times; mark it failed.
 */
import { WorkerEntrypoint } from 'cloudflare:workers';
import type { Env } from '../shared/env.js';
import type { JobMessage } from '../jobs/job-object.js';
import { watchdogLimits } from '../jobs/limits.js';
import type { JobRecord } from '../jobs/state.js';
import { jobStub } from '../jobs/submit.js';
import { decideRetry, retryPolicy } from './retry.js';
import { LeaseLost, runClaimed } from './run-job.js';
import { deleteJobWork } from '../storage/purge.js';
import { endContainerWork } from '../media/stop-work.js';

export const isDeadLetterQueue = (name: string) => name.endsWith('-dlq');

/** Delay before a message whose own handling failed (the job's Durable Object unreachable) is tried again. */
const HANDLER_FAILURE_DELAY_SEC = 10;

/** Attempts of a detached run before the job fails (the main queue's `max_retries` 4, plus the first). */
export const DETACHED_MAX_ATTEMPTS = 5;

/** How a message is settled: the queue's own ack/retry, or (detached) a new message. */
type Settle = Pick<Message<JobMessage>, 'ack' | 'retry' | 'attempts' | 'body'>;

/**
 * Whether jobs run detached from their queue delivery: `QUEUE_DETACHED_RUNS=1`, set by `npm start`.
 * The local queue (miniflare) hands the consumer one batch at a time and waits for it to settle
 * (waitUntil included), so one slow job held every other key's jobs (issue #12, finding 1). A
 * detached run is handed to the `JobRunner` entrypoint of this same Worker (service binding
 * `JOB_RUNNER`), whose RPC answers at once and runs the job in its own `waitUntil`; the message is
 * acked, and retries are new messages carrying their attempt. In production each message is its
 * own invocation (`max_batch_size = 1`, `max_concurrency`), which isolates jobs without it (and an
 * RPC's `waitUntil` is cut short there).
 */
export const detachedRuns = (env: Env) => env.QUEUE_DETACHED_RUNS === '1' && env.JOB_RUNNER !== undefined;

export async function handleBatch(batch: MessageBatch<JobMessage>, env: Env): Promise<void> {
  const dead = isDeadLetterQueue(batch.queue);
  if (!dead && detachedRuns(env)) {
    await Promise.all(
      batch.messages.map(async (msg) => {
        try {
          await env.JOB_RUNNER!.start({ ...msg.body, attempt: msg.body?.attempt ?? msg.attempts });
          msg.ack();
        } catch (err) {
          log(msg.body?.video_id, 'handoff', err);
          msg.retry({ delaySeconds: HANDLER_FAILURE_DELAY_SEC });
        }
      }),
    );
    return;
  }
  // Each message settles on its own: a throw here would make the queue retry the whole batch,
  // messages already acknowledged included.
  await Promise.all(
    batch.messages.map(async (msg) => {
      try {
        await (dead ? handleDeadLetter(msg, env) : handleMessage(msg, env));
      } catch (err) {
        log(msg.body?.video_id, 'redeliver', err);
        msg.retry({ delaySeconds: HANDLER_FAILURE_DELAY_SEC });
      }
    }),
  );
}

/** The runner of detached jobs (local development): answers at once, runs the job in `waitUntil`. */
export class JobRunner extends WorkerEntrypoint<Env> {
  async start(message: JobMessage): Promise<void> {
    this.ctx.waitUntil(handleDetached(message, this.env));
  }
}

/** One detached run: retries become new messages; past the last attempt the job fails like the dead-letter path. */
async function handleDetached(message: JobMessage, env: Env): Promise<void> {
  const attempts = message.attempt ?? 1;
  const videoId = message.video_id;
  // The retry (or the final failure) is awaited by this run: its `waitUntil` ends when this
  // function returns, and with it any timer or send still pending. Unawaited, the retry's message
  // was lost and the job waited for the watchdog, 1–3 min (issue #34). The delay is this run's own
  // wait, then an immediate message.
  let settled: Promise<void> = Promise.resolve();
  const again = async (delaySeconds: number) => {
    await new Promise((r) => setTimeout(r, delaySeconds * 1000));
    await env.JOBS.send({ video_id: videoId, attempt: attempts + 1 });
  };
  const settle: Settle = {
    body: message,
    attempts,
    ack: () => {},
    retry: (options) => {
      const delay = options?.delaySeconds ?? HANDLER_FAILURE_DELAY_SEC;
      settled =
        attempts < DETACHED_MAX_ATTEMPTS
          ? again(delay).catch((err) => log(videoId, 'requeue', err))
          : failAfterRetries(env, videoId).catch((err) => log(videoId, 'fail', err));
    },
  };
  try {
    await handleMessage(settle, env);
  } catch (err) {
    log(videoId, 'redeliver', err);
    settle.retry({ delaySeconds: HANDLER_FAILURE_DELAY_SEC });
  }
  await settled;
}

async function handleMessage(msg: Settle, env: Env): Promise<void> {
  const videoId = msg.body?.video_id;
  if (typeof videoId !== 'string') return msg.ack();
  const stub = jobStub(env, videoId);
  const claimed = await stub.claim();
  // Finished, deleted, or held by a live consumer (whose watchdog covers it): nothing to do.
  if (!claimed.ok) return msg.ack();
  const job = claimed.job as JobRecord;
  try {
    await runClaimed(env, job);
    msg.ack();
  } catch (err) {
    if (err instanceof LeaseLost) return msg.ack();
    // A retry must come back before the watchdog would take the job's silence for a dead consumer.
    const policy = retryPolicy(env, watchdogLimits(env).stallMs / 2000);
    const decision = decideRetry(err, msg.attempts, Math.random, policy);
    log(videoId, decision.action, err);
    if (decision.action === 'fail') {
      await stub.fail(decision.message);
      await endJobWork(env, videoId);
      msg.ack();
    } else {
      // Give the job back so the retried delivery can claim it; a stale lease means another
      // consumer (watchdog re-dispatch) has it now, and this message is no longer needed.
      if (!(await stub.release(job.lease, errorMessage(err)))) return msg.ack();
      msg.retry({ delaySeconds: decision.delaySeconds });
    }
  }
}

async function handleDeadLetter(msg: Message<JobMessage>, env: Env): Promise<void> {
  await failAfterRetries(env, msg.body?.video_id);
  msg.ack();
}

async function failAfterRetries(env: Env, videoId: string | undefined): Promise<void> {
  if (typeof videoId !== 'string') return;
  const stub = jobStub(env, videoId);
  const job = (await stub.get()) as JobRecord | null;
  if (job && job.status !== 'completed' && job.status !== 'failed') {
    const why = job.last_error ?? 'an unknown error';
    await stub.fail(`processing failed after repeated attempts: ${why}`);
    await endJobWork(env, videoId);
  }
}

/**
 * A job failed outside its run (the run gave up, the dead-letter queue, the watchdog): its R2
 * intermediates go, and its processes in the media container stop (a consumer the watchdog took
 * for dead may have left them running).
 */
export async function endJobWork(env: Env, videoId: string): Promise<void> {
  await deleteJobWork(env.MEDIA, videoId);
  await endContainerWork(env, videoId);
}

const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));

function log(videoId: string | undefined, action: string, err: unknown) {
  console.error(JSON.stringify({ level: 'warn', video_id: videoId, action, error: errorMessage(err) }));
}
