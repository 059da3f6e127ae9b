/**
 * @module webhooks/schedule
 * When a failed delivery is tried again: exponential backoff from the base delay, each delay at most
 * the max, with ±20 % jitter (so a receiver coming back is not met by every sender at once), until the
 * retry window since the event has passed. Pure; settings from WEBHOOK_RETRY_* (wrangler.toml).
 */
import { numberVar } from '../shared/env.js';

export interface RetryPolicy {
  baseDelaySec: number;
  maxDelaySec: number;
  windowSec: number;
}

export interface RetryEnv {
  WEBHOOK_RETRY_BASE_DELAY_SEC?: string;
  WEBHOOK_RETRY_MAX_DELAY_SEC?: string;
  WEBHOOK_RETRY_WINDOW_SEC?: string;
}

export const retryPolicy = (env: RetryEnv): RetryPolicy => ({
  baseDelaySec: Math.max(0.1, numberVar(env.WEBHOOK_RETRY_BASE_DELAY_SEC, 5)),
  maxDelaySec: Math.max(0.1, numberVar(env.WEBHOOK_RETRY_MAX_DELAY_SEC, 3600)),
  windowSec: numberVar(env.WEBHOOK_RETRY_WINDOW_SEC, 86_400),
});

/**
 * Pure: when the next attempt after `failures` failed ones (1 after the first) is due, in ms since
 * the epoch; null when it would fall outside the window (give up). `random` in [0, 1).
 * @example nextAttemptAt(1, 0, 1_000, { baseDelaySec: 5, maxDelaySec: 3600, windowSec: 86400 }, 0.5) // 6000
 */
export function nextAttemptAt(
  failures: number,
  createdAt: number,
  now: number,
  policy: RetryPolicy,
  random: number,
): number | null {
  const delaySec = Math.min(policy.maxDelaySec, policy.baseDelaySec * 2 ** Math.max(0, failures - 1));
  const at = now + Math.round(delaySec * (0.8 + 0.4 * random) * 1000);
  return at - createdAt <= policy.windowSec * 1000 ? at : null;
}
