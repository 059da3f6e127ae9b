/**
 * @module jobs/tenant/rate-windows
 * Requests per fixed one-minute window, one window per bucket (`api`, and `status` for cheap
 * polling). In memory only: an evicted tenant object forgets at most one minute of counts.
 */

export const RATE_WINDOW_MS = 60_000;

export type RateBucket = 'api' | 'status';

export interface RateVerdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  reset_sec: number;
}

export class RateWindows {
  private readonly windows = new Map<RateBucket, { start: number; count: number }>();

  /** Counts one request in `bucket`; refuses once `limit` is reached in the window holding `now`. */
  hit(bucket: RateBucket, limit: number, now: number): RateVerdict {
    const start = now - (now % RATE_WINDOW_MS);
    let window = this.windows.get(bucket);
    if (!window || window.start !== start) {
      window = { start, count: 0 };
      this.windows.set(bucket, window);
    }
    const reset_sec = Math.max(1, Math.ceil((start + RATE_WINDOW_MS - now) / 1000));
    if (window.count >= limit) return { allowed: false, limit, remaining: 0, reset_sec };
    window.count++;
    return { allowed: true, limit, remaining: limit - window.count, reset_sec };
  }
}
