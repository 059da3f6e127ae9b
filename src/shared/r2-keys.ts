/**
 * @module shared/r2-keys
 * The R2 key layout, in one place (ARCHITECTURE.md "Storage layout").
 */
export const r2Keys = {
  upload: (videoId: string) => `uploads/${videoId}/source`,
  uploadAudio: (videoId: string) => `uploads/${videoId}/audio`,
  avatar: (tenant: string, avatarId: string) => `avatars/${tenant}/${avatarId}/source`,
  avatarMeta: (tenant: string, avatarId: string) => `avatars/${tenant}/${avatarId}/meta.json`,
  avatarPrefix: (tenant: string, avatarId: string) => `avatars/${tenant}/${avatarId}/`,
  work: (videoId: string, step: string) => `work/${videoId}/${step}`,
  workPrefix: (videoId: string) => `work/${videoId}/`,
  output: (videoId: string) => `outputs/${videoId}/video.mp4`,
  /** Caption files of the job's speech (an analysis job's transcript, a processing job's new speech), written as it completes. */
  captions: (videoId: string, format: 'vtt' | 'srt') => `outputs/${videoId}/captions.${format}`,
  result: (videoId: string) => `results/${videoId}.json`,
  /** Everything a job owns, except its result (`result`), which is a single key. */
  jobPrefixes: (videoId: string) => [`uploads/${videoId}/`, `work/${videoId}/`, `outputs/${videoId}/`],
  /** A completed resumable upload, until a job takes it (the job then copies nothing: it points here). */
  resumable: (tenant: string, uploadId: string) => `resumable/${tenant}/${uploadId}/source`,
  apiKey: (hash: string) => `keys/${hash}.json`,
  apiKeyPrefix: 'keys/',
} as const;
