/**
 * @module media/container
 * The Cloudflare Container that runs `containers/media` in production.
 *
 * Self-healing (issue #34): a request of a job's work (header `x-job-id`) is tracked while it runs.
 * When the container stops without being asked to (a crash, out of memory: `onStop`) or the
 * runtime reports an error (`onError`), each job whose work was cut off is sent to the queue again
 * after `RESUME_DELAY_SEC`: its run claims it once the run that lost the container has released it
 * (a duplicate is acked by `claim`), and that run's `containerFetch` starts a new container and
 * waits for its port. So a job resumes as soon as a container answers again, not after the
 * backoff of its failed attempt or the stall watchdog.
 */
import { Container } from '@cloudflare/containers';
import type { StopParams } from '@cloudflare/containers';
import { MEDIA_HEADERS } from '../contract/media-protocol.js';
import { InflightJobs, isCrash } from './inflight-jobs.js';

/** Seconds before a job cut off by a crash is sent again (its failed run releases it first). */
export const RESUME_DELAY_SEC = 3;

export class MediaContainer extends Container {
  defaultPort = 8788;
  // Models load once per instance: keep it warm between jobs.
  sleepAfter = '15m';
  envVars = { PORT: '8788', NODE_ENV: 'production' };

  private readonly inflight = new InflightJobs();
  private stopRequested = false;

  override async fetch(request: Request): Promise<Response> {
    const leave = this.inflight.enter(request.headers.get(MEDIA_HEADERS.jobId));
    try {
      const res = await super.fetch(request);
      if (!res.body) {
        leave();
        return res;
      }
      // The job's work lasts as long as its answer streams.
      const { readable, writable } = new TransformStream();
      void res.body.pipeTo(writable).then(leave, leave);
      return new Response(readable, res);
    } catch (err) {
      leave();
      throw err;
    }
  }

  override async onActivityExpired(): Promise<void> {
    this.stopRequested = true;
    await super.onActivityExpired();
  }

  override onStart(): void {
    this.stopRequested = false;
  }

  override async onStop(params: StopParams): Promise<void> {
    const crashed = isCrash(params, this.stopRequested);
    this.stopRequested = false;
    const lost = this.inflight.drain();
    if (!crashed || lost.length === 0) return;
    console.error(
      JSON.stringify({ level: 'warn', where: 'media-container', event: 'crash', ...params, jobs: lost }),
    );
    await this.resume(lost);
  }

  override async onError(error: unknown) {
    console.error(JSON.stringify({ level: 'error', where: 'media-container', error: String(error) }));
    await this.resume(this.inflight.drain());
    throw error;
  }

  private async resume(jobs: string[]): Promise<void> {
    // The jobs queue's message (`jobs/job-object.ts` JobMessage): this layer does not import the jobs'.
    const queue = (this.env as { JOBS?: Queue<{ video_id: string }> }).JOBS;
    if (!queue || jobs.length === 0) return;
    await queue
      .sendBatch(jobs.map((video_id) => ({ body: { video_id }, delaySeconds: RESUME_DELAY_SEC })))
      .catch((err) =>
        console.error(JSON.stringify({ level: 'error', where: 'media-container', resume: String(err) })),
      );
  }
}
