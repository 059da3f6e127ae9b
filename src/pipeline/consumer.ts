/**
 * @module pipeline/consumer
 * The queue handler. Main queue: run each job, retry transient failures with backoff, fail
 * unrecoverable ones at once. Dead-letter queue: the job failed too many times; mark it failed.
 */
import type { Env } from '../env.js';
import type { JobMessage } from '../jobs/job-object.js';
import { watchdogLimits } from '../jobs/limits.js';
import type { JobRecord } from '../jobs/state.js';
import { jobStub } from '../jobs/submit.js';
import { decideRetry, retryPolicy, type RetryEnv } from './retry.js';
import { deleteWork, LeaseLost, runClaimed } from './run-job.js';

export const isDeadLetterQueue = (name: string) => name.endsWith('-dlq');

/** Delay before a message whose own handling failed (the job's Durable Object unreachable) is tried again. */
const HANDLER_FAILURE_DELAY_SEC = 10;

export async function handleBatch(batch: MessageBatch<JobMessage>, env: Env): Promise<void> {
  const dead = isDeadLetterQueue(batch.queue);
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

async function handleMessage(msg: Message<JobMessage>, env: Env): Promise<void> {
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
    const policy = retryPolicy(env as Env & RetryEnv, watchdogLimits(env).stallMs / 2000);
    const decision = decideRetry(err, msg.attempts, Math.random, policy);
    log(videoId, decision.action, err);
    if (decision.action === 'fail') {
      await stub.fail(decision.message);
      await deleteWork(env.MEDIA, videoId);
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
  const videoId = msg.body?.video_id;
  if (typeof videoId === 'string') {
    const stub = jobStub(env, videoId);
    const job = (await stub.get()) as JobRecord | null;
    if (job && job.status !== 'completed' && job.status !== 'failed') {
      const why = job.last_error ?? 'an unknown error';
      await stub.fail(`processing failed after repeated attempts: ${why}`);
      await deleteWork(env.MEDIA, videoId);
    }
  }
  msg.ack();
}

const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));

function log(videoId: string | undefined, action: string, err: unknown) {
  console.error(JSON.stringify({ level: 'warn', video_id: videoId, action, error: errorMessage(err) }));
}
