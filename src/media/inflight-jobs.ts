/**
 * @module media/inflight-jobs
 * What the production container (`media/container.ts`) knows of the jobs it serves, as pure code:
 * which have work in flight, and whether a stop was a crash (issue #34).
 */
import type { StopParams } from '@cloudflare/containers';
import { KeyedCounter } from '../shared/keyed-counter.js';

/** Job ids with work running in this container, and how many of their requests are in flight. */
export class InflightJobs {
  private readonly counts = new KeyedCounter();

  /** Counts a request of `jobId` until the returned function is called. */
  enter(jobId: string | null): () => void {
    return jobId ? this.counts.enter(jobId) : () => {};
  }

  /** The jobs with work in flight, forgotten (their requests are gone with the container). */
  drain(): string[] {
    return this.counts.drain();
  }
}

/** Pure: whether a stop was a crash (not the exit after `stop()` of an idle container). */
export const isCrash = (params: StopParams, stopRequested: boolean): boolean =>
  !stopRequested && (params.reason === 'runtime_signal' || params.exitCode !== 0);
