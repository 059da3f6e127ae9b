/**
 * @module pipeline/ticks
 * One small timing helper the steps share, apart from the step context (which brings the media
 * client and its transports): a step module that only needs this stays importable anywhere.
 */

/**
 * Calls `fn` while calling `tick` every `intervalMs` (its failures ignored): the job's heartbeat,
 * so the watchdog knows the consumer is alive; a render's progress.
 */
export async function withTicks<T>(
  intervalMs: number,
  tick: () => Promise<void>,
  fn: () => Promise<T>,
): Promise<T> {
  const timer = setInterval(() => {
    tick().catch(() => {});
  }, intervalMs);
  try {
    return await fn();
  } finally {
    clearInterval(timer);
  }
}
