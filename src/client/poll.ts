/**
 * @module client/poll
 * When to poll next: a pure function of the attempt, so it is testable without clocks.
 * The delay grows while the job shows no progress and starts over when progress moves.
 */

export interface BackoffOptions {
  /** First delay; default 1000 ms. */
  intervalMs?: number;
  /** Ceiling; default 10 000 ms. */
  maxIntervalMs?: number;
  /** Growth per unchanged poll; default 1.5. */
  factor?: number;
  /** Random spread ±, so many clients do not poll in step; default 0.1 (10 %). */
  jitter?: number;
}

/**
 * Delay before the next poll after `unchanged` polls without progress.
 * @example
 * nextPollDelayMs(0) // ≈ 1000
 * nextPollDelayMs(3) // ≈ 3375
 */
export function nextPollDelayMs(
  unchanged: number,
  options: BackoffOptions = {},
  random: () => number = Math.random,
): number {
  const { intervalMs = 1000, maxIntervalMs = 10_000, factor = 1.5, jitter = 0.1 } = options;
  const base = Math.min(maxIntervalMs, intervalMs * factor ** Math.max(0, unchanged));
  return Math.max(0, Math.round(base * (1 + jitter * (2 * random() - 1))));
}

/** Resolves after `ms`, or rejects when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    function onAbort() {
      clearTimeout(timer);
      reject(signal!.reason);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
