/**
 * @module pipeline/consumer
 * The queue handler. Main queue: run each job, retry transient failures with backoff, fail
 * unrecoverable ones at once. Dead-letter queue: the job failed too many times; mark it failed.
 */
import type { Env } from '../env.js';
import type { JobMessage } from '../jobs/job-object.js';
import type { JobRecord } from '../jobs/state.js';
import { jobStub } from '../jobs/submit.js';
import { decideRetry } from './retry.js';
import { deleteWork, LeaseLost, runJob } from './run-job.js';

export const isDeadLetterQueue = (name: string) => name.endsWith('-dlq');

export async function handleBatch(batch: MessageBatch<JobMessage>, env: Env): Promise<void> {
  const dead = isDeadLetterQueue(batch.queue);
  await Promise.all(batch.messages.map((msg) => (dead ? handleDeadLetter(msg, env) : handleMessage(msg, env))));
}

async function handleMessage(msg: Message<JobMessage>, env: Env): Promise<void> {
  const videoId = msg.body?.video_id;
  if (typeof videoId !== 'string') return msg.ack();
  try {
    await runJob(env, videoId);
    msg.ack();
  } catch (err) {
    if (err instanceof LeaseLost) return msg.ack();
    const decision = decideRetry(err, msg.attempts);
    const stub = jobStub(env, videoId);
    log(videoId, decision.action, err);
    if (decision.action === 'fail') {
      await stub.fail(decision.message);
      await deleteWork(env.MEDIA, videoId);
      msg.ack();
    } else {
      await stub.noteError((err as Error).message ?? String(err));
      msg.retry({ delaySeconds: decision.delaySeconds });
    }
  }
}

async function handleDeadLetter(msg: Message<JobMessage>, env: Env): Promise<void> {
  const videoId = msg.body?.video_id;
  if (typeof videoId === 'string') {
    const stub = jobStub(env, videoId);
    const job = (await stub.get()) as JobRecord | null;
    const why = job?.last_error ?? 'an unknown error';
    await stub.fail(`processing failed after repeated attempts: ${why}`);
    await deleteWork(env.MEDIA, videoId);
  }
  msg.ack();
}

function log(videoId: string, action: string, err: unknown) {
  console.error(JSON.stringify({ level: 'warn', video_id: videoId, action, error: (err as Error)?.message ?? String(err) }));
}
