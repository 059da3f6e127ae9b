/**
 * @module pipeline/retry
 * The retry decision as one pure function: unrecoverable errors fail the job at once; other
 * errors are retried with exponential backoff and jitter until the queue's max_retries, after
 * which the message goes to the dead-letter queue (which fails the job with the last error).
 */
import { numberVar } from '../shared/env.js';
import { MediaUnreachableError, UnrecoverableError } from '../media/errors.js';

export const RETRY_BASE_DELAY_SEC = 5;
export const RETRY_MAX_DELAY_SEC = 120;
/**
 * Longest wait after the media service did not answer at all (issue #34): the supervisor
 * (`npm start`) or the Container class restarts it within seconds, and a job must resume within
 * about this long of it answering again, not after a doubling delay of 40–120 s.
 */
export const UNREACHABLE_MAX_DELAY_SEC = 10;

export interface RetryPolicy {
  /** Delay before the second attempt; doubles per attempt. Default 5 s. */
  baseDelaySec: number;
  /** Ceiling of one delay. Default 120 s. */
  maxDelaySec: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseDelaySec: RETRY_BASE_DELAY_SEC,
  maxDelaySec: RETRY_MAX_DELAY_SEC,
};

export interface RetryEnv {
  JOB_RETRY_BASE_DELAY_SEC?: string;
  JOB_RETRY_MAX_DELAY_SEC?: string;
}

/**
 * The policy from `[vars]`. `ceilingSec` caps every delay: a job waiting for its retry must be
 * picked up again before the watchdog takes its silence for a dead consumer.
 * @example retryPolicy(env, watchdogLimits(env).stallMs / 2000)
 */
export function retryPolicy(env: RetryEnv, ceilingSec = Number.POSITIVE_INFINITY): RetryPolicy {
  const base = Math.max(1, numberVar(env.JOB_RETRY_BASE_DELAY_SEC, RETRY_BASE_DELAY_SEC));
  const max = Math.max(base, numberVar(env.JOB_RETRY_MAX_DELAY_SEC, RETRY_MAX_DELAY_SEC));
  const ceiling = Math.max(1, Math.floor(ceilingSec));
  return { baseDelaySec: Math.min(base, ceiling), maxDelaySec: Math.min(max, ceiling) };
}

export type RetryDecision = { action: 'fail'; message: string } | { action: 'retry'; delaySeconds: number };

export function decideRetry(
  error: unknown,
  attempts: number,
  random = Math.random,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): RetryDecision {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof UnrecoverableError) return { action: 'fail', message };
  const max =
    error instanceof MediaUnreachableError
      ? Math.min(policy.maxDelaySec, UNREACHABLE_MAX_DELAY_SEC)
      : policy.maxDelaySec;
  const exp = Math.min(max, policy.baseDelaySec * 2 ** Math.max(0, attempts - 1));
  // Full jitter on half of the delay: spread retries of jobs that failed together.
  const delaySeconds = Math.max(1, Math.round(exp / 2 + random() * (exp / 2)));
  return { action: 'retry', delaySeconds };
}
