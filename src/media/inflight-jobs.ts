/**
 * @module media/inflight-jobs
 * What the production container (`media/container.ts`) knows of the jobs it serves, as pure code:
 * which have work in flight, and whether a stop was a crash (issue #34).
 */
import type { StopParams } from '@cloudflare/containers';

/** Job ids with work running in this container, and how many of their requests are in flight. */
export class InflightJobs {
  private readonly counts = new Map<string, number>();

  /** Counts a request of `jobId` until the returned function is called. */
  enter(jobId: string | null): () => void {
    if (!jobId) return () => {};
    this.counts.set(jobId, (this.counts.get(jobId) ?? 0) + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const n = (this.counts.get(jobId) ?? 1) - 1;
      if (n > 0) this.counts.set(jobId, n);
      else this.counts.delete(jobId);
    };
  }

  /** The jobs with work in flight, forgotten (their requests are gone with the container). */
  drain(): string[] {
    const ids = [...this.counts.keys()];
    this.counts.clear();
    return ids;
  }
}

/** Pure: whether a stop was a crash (not the exit after `stop()` of an idle container). */
export const isCrash = (params: StopParams, stopRequested: boolean): boolean =>
  !stopRequested && (params.reason === 'runtime_signal' || params.exitCode !== 0);
