/**
 * @module client
 * The typed client of the video analysis and processing API (Node 20+ and browsers).
 *
 * @example
 * import { VideoApiClient } from './src/client/index.js';
 * const client = new VideoApiClient({ apiKey: 'dev_…' });
 * const { video_id } = await client.analyzeVideo('talk.mp4');
 * const { result } = await client.waitForCompletion(video_id);
 */
export {
  VideoApiClient,
  DEFAULT_BASE_URL,
  LONG_POLL_SEC,
  type JobStatus,
  type ReportedStatus,
  type JobState,
  type JobCreated,
  type AvatarRegistered,
  type VideoApiClientOptions,
  type AnalyzeOptions,
  type ProcessOptions,
  type UploadOptions,
  type WaitOptions,
  type DownloadOptions,
  type ListJobsOptions,
  type JobList,
  type AvatarList,
  type WebhookDeliveries,
  type WebhookSecret,
} from './client.js';
export { verifyWebhook, type WebhookPayload } from './webhook.js';
export { VideoApiError, VideoJobError, VideoWaitTimeoutError } from './errors.js';
export { type FileInput, type UploadProgress } from './form.js';
export { nextPollDelayMs, type BackoffOptions } from './poll.js';
export type { AnalysisResult } from '../contract/result.js';
