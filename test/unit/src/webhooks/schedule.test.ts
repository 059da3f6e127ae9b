import { describe, expect, it } from 'vitest';
import { nextAttemptAt, retryPolicy } from '../../../../src/webhooks/schedule.js';

const policy = { baseDelaySec: 5, maxDelaySec: 3600, windowSec: 86_400 };

describe('nextAttemptAt', () => {
  it('should double the delay from the base up to the max, within ±20 % jitter', () => {
    const at = (failures: number, random: number) => nextAttemptAt(failures, 0, 0, policy, random)! / 1000;
    expect(at(1, 0.5)).toBe(5);
    expect(at(2, 0.5)).toBe(10);
    expect(at(5, 0.5)).toBe(80);
    expect(at(20, 0.5)).toBe(3600);
    expect(at(1, 0)).toBe(4);
    expect(at(1, 0.999999)).toBeCloseTo(6, 2);
  });

  it('should give up once the next attempt falls outside the window', () => {
    const day = 86_400_000;
    expect(nextAttemptAt(30, 0, day - 3_700_000, policy, 0.5)).toBe(day - 100_000);
    expect(nextAttemptAt(30, 0, day - 3_000_000, policy, 0.5)).toBeNull();
  });

  it('should make about 30 attempts in a day against a receiver that is always down', () => {
    let now = 0;
    let failures = 0;
    for (;;) {
      failures++;
      const next = nextAttemptAt(failures, 0, now, policy, 0.5);
      if (next === null) break;
      now = next;
    }
    expect(failures).toBeGreaterThan(25);
    expect(failures).toBeLessThan(40);
  });

  it('should read its settings from the environment', () => {
    expect(retryPolicy({})).toEqual(policy);
    expect(
      retryPolicy({
        WEBHOOK_RETRY_BASE_DELAY_SEC: '1',
        WEBHOOK_RETRY_MAX_DELAY_SEC: '2',
        WEBHOOK_RETRY_WINDOW_SEC: '60',
      }),
    ).toEqual({ baseDelaySec: 1, maxDelaySec: 2, windowSec: 60 });
  });
});
