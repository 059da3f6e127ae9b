/**
 * @module contract/responses
 * The JSON bodies the job, avatar and upload endpoints answer with. The routes build them to
 * these types and the OpenAPI document states them from the same schemas.
 */
import { z } from 'zod';

const int = z.number().int();

export const JobCreated = z.object({
  video_id: z
    .string()
    .regex(/^vid_[A-Za-z0-9_-]{22}$/)
    .describe('Job id (`vid_` + 22 characters). Poll `GET /api/status/{video_id}`.'),
  status: z.literal('pending'),
});
export type JobCreated = z.infer<typeof JobCreated>;

export const AvatarRegistered = z.object({
  video_id: z
    .string()
    .regex(/^avt_[A-Za-z0-9_-]{22}$/)
    .describe(
      'Avatar id (`avt_` + 22 characters), usable as `video_id` in process-video by the same API key only.',
    ),
  registration_status: z.literal(true),
});
export type AvatarRegistered = z.infer<typeof AvatarRegistered>;

export const UploadCreated = z.object({
  upload_id: z.string().regex(/^upl_[A-Za-z0-9_-]{22}$/),
  part_size: int.describe(
    'Bytes of every part but the last (UPLOAD_PART_BYTES, default 16 MiB, at least 5 MiB).',
  ),
  max_bytes: int.describe('Largest file (MAX_UPLOAD_BYTES).'),
  expires_in_sec: int.describe(
    'An upload idle this long is aborted (UPLOAD_ABANDON_AFTER_SEC, default 24 h).',
  ),
});
export type UploadCreated = z.infer<typeof UploadCreated>;

export const UploadPart = z.object({ part: int.min(1), size: int });
export type UploadPart = z.infer<typeof UploadPart>;

export const UploadState = z
  .object({
    upload_id: z.string(),
    part_size: int,
    parts: z.array(UploadPart),
    completed: z.boolean(),
    size: int.describe('Bytes received (the file size once completed).'),
  })
  .describe('Which parts arrived, to resume after a break.');
export type UploadState = z.infer<typeof UploadState>;

export const UploadCompleted = z.object({
  file_id: z
    .string()
    .describe('Send as the `file_id` form field of analyze-video, process-video or register-avatar.'),
  size: int,
});
export type UploadCompleted = z.infer<typeof UploadCompleted>;

/** The optional body of `POST /api/uploads/{id}/complete`. */
export const CompleteUploadRequest = z.object({
  parts: int
    .min(1)
    .max(10_000)
    .describe('The last part of the file: parts above it (stray uploads) are left out.'),
});
