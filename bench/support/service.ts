/**
 * @module bench/support/service
 * A client of the running `npm start` service the end-to-end benches measure: its port (PORT,
 * default 8787), its dev API key (DEV_API_KEY or `.dev.vars`), and one job timed from submit to
 * its final status.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LONG_POLL_SEC, VideoApiClient, type JobStatus } from '../../src/client/index.js';

export const BENCH_ROOT = new URL('../..', import.meta.url).pathname;

/** The dev API key the running service accepts (the first of DEV_API_KEY, else `.dev.vars`). */
export function devKey(): string {
  if (process.env.DEV_API_KEY) return process.env.DEV_API_KEY.split(',')[0].trim();
  const m = /^DEV_API_KEY\s*=\s*"?([^"\n,]+)/m.exec(readFileSync(join(BENCH_ROOT, '.dev.vars'), 'utf8'));
  if (!m) throw new Error('no DEV_API_KEY in .dev.vars: start the service with `npm start` first');
  return m[1];
}

export function serviceClient(): { client: VideoApiClient; baseUrl: string } {
  const baseUrl = `http://127.0.0.1:${Number(process.env.PORT ?? 8787)}`;
  return { client: new VideoApiClient({ baseUrl, apiKey: devKey() }), baseUrl };
}

export interface JobRun {
  videoId: string;
  status: JobStatus['status'] | 'timeout';
  error?: string;
  uploadSec: number;
  wallSec: number;
  final?: JobStatus;
}

/**
 * Submits, then waits for the end with long-polls (`GET status?wait=`: the service answers as
 * soon as the job's status moves, or its progress after a second), so the wall time is not
 * rounded up to a poll interval and no polls compete with the job for the CPU. Wall time runs
 * from the start of the upload to the answer that showed the end. `pollMs`: the pause after an
 * answer that came back early without a change (a service without long-polls).
 */
export async function timeJob(
  client: VideoApiClient,
  submit: (client: VideoApiClient) => Promise<{ video_id: string }>,
  { pollMs = 250, maxWaitMs = 1_800_000 } = {},
): Promise<JobRun> {
  const t0 = performance.now();
  const { video_id: videoId } = await submit(client);
  const uploadSec = (performance.now() - t0) / 1000;
  let last: JobStatus | null = null;
  for (;;) {
    const asked = performance.now();
    const status = await client.getStatus(videoId, undefined, { waitSec: LONG_POLL_SEC });
    const wallSec = (performance.now() - t0) / 1000;
    if (status.status !== 'pending' && status.status !== 'processing') {
      return {
        videoId,
        status: status.status,
        error: status.error_message ?? undefined,
        uploadSec,
        wallSec,
        final: status,
      };
    }
    if (wallSec * 1000 > maxWaitMs) return { videoId, status: 'timeout', uploadSec, wallSec };
    const moved = last?.status !== status.status || last.progress !== status.progress;
    last = status;
    if (!moved && performance.now() - asked < pollMs) await new Promise((r) => setTimeout(r, pollMs));
  }
}
