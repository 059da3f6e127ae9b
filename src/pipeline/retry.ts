/**
 * @module pipeline/retry
 * The retry decision as one pure function: unrecoverable errors fail the job at once; other
 * errors are retried with exponential backoff and jitter until the queue's max_retries, after
 * which the message goes to the dead-letter queue (which fails the job with the last error).
 */
import { UnrecoverableError } from '../media/errors.js';

export const RETRY_BASE_DELAY_SEC = 5;
export const RETRY_MAX_DELAY_SEC = 120;

export type RetryDecision = { action: 'fail'; message: string } | { action: 'retry'; delaySeconds: number };

export function decideRetry(error: unknown, attempts: number, random = Math.random): RetryDecision {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof UnrecoverableError) return { action: 'fail', message };
  const exp = Math.min(RETRY_MAX_DELAY_SEC, RETRY_BASE_DELAY_SEC * 2 ** Math.max(0, attempts - 1));
  // Full jitter on half of the delay: spread retries of jobs that failed together.
  const delaySeconds = Math.round(exp / 2 + random() * (exp / 2));
  return { action: 'retry', delaySeconds };
}
