/**
 * @module media/stop-work
 * Stops a job's running work in the media container (`DELETE /jobs/{id}` there kills its
 * processes): what DELETE of a running job does after marking it deleted.
 */
import { MediaClient } from './client.js';
import { mediaTransport, type MediaEnv } from './transport.js';

/** @example await stopContainerWork(env, 'vid_…') */
export async function stopContainerWork(env: MediaEnv, videoId: string): Promise<void> {
  await new MediaClient(mediaTransport(env, videoId)).abortJob(videoId);
}
