/**
 * Long work's own thread yields to other keys' running work (issue #12): it pauses while another
 * key has work here, never for long, and never when it is short or alone.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  BURST_MEMORY_MS,
  openScope,
  otherKeysRunning,
  nextBurst,
  tenantJobs,
  yieldToOtherKeys,
} from '../../../../../containers/media/core/work-scope.js';

const timed = async (p: Promise<unknown>) => {
  const t0 = Date.now();
  await p;
  return Date.now() - t0;
};

describe('yieldToOtherKeys', () => {
  it('should pause long work while another key runs, at most its bound, and resume when that work ends', async () => {
    const long = openScope({ tenant: 'key-long', jobId: 'job-long', mediaSec: 300 });
    expect(await timed(yieldToOtherKeys(long, 150))).toBeLessThan(20); // alone
    const other = openScope({ tenant: 'key-other', jobId: 'job-other', mediaSec: 5 });
    expect(otherKeysRunning('key-long')).toBe(true);
    const bounded = await timed(yieldToOtherKeys(long, 150));
    expect(bounded).toBeGreaterThanOrEqual(140);
    expect(bounded).toBeLessThan(400);
    setTimeout(() => other.dispose(), 50);
    expect(await timed(yieldToOtherKeys(long, 2_000))).toBeLessThan(500);
    long.dispose();
  });

  it('should never pause short work, nor for another key’s work that only waits its turn', async () => {
    const short = openScope({ tenant: 'key-short', jobId: 'job-short', mediaSec: 5 });
    const other = openScope({ tenant: 'key-busy', jobId: 'job-busy', mediaSec: 5 });
    expect(await timed(yieldToOtherKeys(short, 150))).toBeLessThan(20);
    other.dispose();
    short.dispose();
    const long = openScope({ tenant: 'key-long2', jobId: 'job-long2', mediaSec: 300 });
    const waiting = openScope({ tenant: 'key-w', jobId: 'job-w', mediaSec: 5, admitted: false });
    expect(await timed(yieldToOtherKeys(long, 150))).toBeLessThan(20);
    for (const s of [long, waiting]) s.dispose();
  });
});

describe('tenantJobs', () => {
  it('should count a key’s burst (its most jobs at once) within the burst memory, and forget it after', () => {
    const jobs = ['b1', 'b2', 'b3'].map((jobId) => openScope({ tenant: 'key-burst', jobId }));
    const sameJob = openScope({ tenant: 'key-burst', jobId: 'b1' });
    expect(tenantJobs('key-burst')).toBe(3);
    for (const s of [...jobs, sameJob]) s.dispose();
    const now = Date.now();
    expect(tenantJobs('key-burst', now)).toBe(3);
    expect(tenantJobs('key-never-seen', now)).toBe(0);
    expect(tenantJobs('key-burst', now + BURST_MEMORY_MS + 1_000)).toBe(0);
    // Any key's next scope forgets it (a key that never returns leaves nothing behind).
    vi.useFakeTimers({ now: now + BURST_MEMORY_MS + 1_000, toFake: ['Date'] });
    try {
      openScope({ tenant: 'key-later', jobId: 'l1' }).dispose();
    } finally {
      vi.useRealTimers();
    }
    expect(tenantJobs('key-burst', now)).toBe(0); // forgotten, not only hidden
  });

  it('should not count jobs sent one after another as a burst', () => {
    for (const jobId of ['s1', 's2', 's3', 's4']) {
      const scope = openScope({ tenant: 'key-steady', jobId });
      expect(tenantJobs('key-steady')).toBe(1);
      scope.dispose();
    }
    expect(tenantJobs('key-steady')).toBe(1);
  });
});

describe('nextBurst', () => {
  it('should keep the peak for the memory after it was last reached, then follow the jobs here', () => {
    expect(nextBurst(undefined, 0, 0, 60_000)).toBeUndefined();
    expect(nextBurst(undefined, 2, 0, 60_000)).toEqual({ jobs: 2, seen: 0 });
    expect(nextBurst({ jobs: 5, seen: 0 }, 1, 60_000, 60_000)).toEqual({ jobs: 5, seen: 0 });
    expect(nextBurst({ jobs: 5, seen: 0 }, 1, 60_001, 60_000)).toEqual({ jobs: 1, seen: 60_001 });
    expect(nextBurst({ jobs: 5, seen: 0 }, 0, 60_001, 60_000)).toBeUndefined();
    // Reaching the peak again renews it.
    expect(nextBurst({ jobs: 5, seen: 0 }, 5, 50_000, 60_000)).toEqual({ jobs: 5, seen: 50_000 });
  });
});
