/**
 * @module contract/lists
 * The key's lists (extension): `GET /api/jobs` and `GET /api/avatars`, newest first, a page at a
 * time with an opaque cursor.
 */
import { z } from 'zod';
import { JOB_STATUSES } from './jobs.js';

export const LIST_DEFAULT_LIMIT = 20;
export const LIST_MAX_LIMIT = 100;
export const LIST_KINDS = ['analysis', 'processing'] as const;

const when = z.string().meta({ format: 'date-time' });

export const JobListItem = z.object({
  video_id: z.string(),
  kind: z.enum(LIST_KINDS),
  status: z.enum(JOB_STATUSES),
  progress: z.number().min(0).max(100),
  created_at: when,
  finished_at: when.nullable().describe('When the job completed or failed; null while it runs.'),
});
export type JobListItem = z.infer<typeof JobListItem>;

const nextCursor = z
  .string()
  .nullable()
  .describe('Pass as `cursor` for the next page; null on the last page. Opaque: do not build or parse it.');

export const JobList = z.object({ data: z.array(JobListItem), next_cursor: nextCursor });
export type JobList = z.infer<typeof JobList>;

export const AvatarListItem = z.object({
  video_id: z.string().describe('The `avt_` id, as register-avatar returned it.'),
  created_at: when,
});
export type AvatarListItem = z.infer<typeof AvatarListItem>;

export const AvatarList = z.object({ data: z.array(AvatarListItem), next_cursor: nextCursor });
export type AvatarList = z.infer<typeof AvatarList>;
