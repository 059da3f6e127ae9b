/**
 * @module storage/keys
 * The R2 key layout, in one place (ARCHITECTURE.md "Storage layout").
 */
export const r2Keys = {
  upload: (videoId: string) => `uploads/${videoId}/source`,
  uploadAudio: (videoId: string) => `uploads/${videoId}/audio`,
  avatar: (tenant: string, avatarId: string) => `avatars/${tenant}/${avatarId}/source`,
  avatarMeta: (tenant: string, avatarId: string) => `avatars/${tenant}/${avatarId}/meta.json`,
  work: (videoId: string, step: string) => `work/${videoId}/${step}`,
  workPrefix: (videoId: string) => `work/${videoId}/`,
  output: (videoId: string) => `outputs/${videoId}/video.mp4`,
  result: (videoId: string) => `results/${videoId}.json`,
  apiKey: (hash: string) => `keys/${hash}.json`,
  apiKeyPrefix: 'keys/',
} as const;
