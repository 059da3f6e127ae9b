/**
 * @module media/stop-work
 * Stops a job's running work in the media container (`DELETE /jobs/{id}` there kills its
 * processes and removes the source it kept for the job): what DELETE of a running job does after
 * marking it deleted, and what the pipeline does when a job ends.
 */
import { MediaClient } from './client.js';
import { mediaTransport, type MediaEnv } from './transport.js';

/** @example await stopContainerWork(env, 'vid_…') */
export async function stopContainerWork(env: MediaEnv, videoId: string): Promise<void> {
  await new MediaClient(mediaTransport(env, videoId)).abortJob(videoId);
}

/**
 * The job ended (completed, or failed for good): the container removes what it kept for it. Best
 * effort: a container that does not answer removes it when unused for `MEDIA_SOURCE_TTL_SEC`.
 */
export async function endContainerWork(env: MediaEnv, videoId: string): Promise<void> {
  await stopContainerWork(env, videoId).catch(() => {});
}
