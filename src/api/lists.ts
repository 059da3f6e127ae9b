/**
 * @module api/lists
 * GET /api/jobs and GET /api/avatars (extension): the key's jobs and avatars, newest first, from the
 * index in its tenant object. Only the caller's key is ever read (the tenant object is the key's), and
 * deleted or expired entries are absent. Running jobs on a page show their live progress.
 */
import { Hono, type Context } from 'hono';
import { tenantStub } from '../auth/limits.js';
import { ApiError } from '../contract/errors.js';
import { JOB_STATUSES, type JobStatus } from '../contract/jobs.js';
import {
  LIST_DEFAULT_LIMIT,
  LIST_KINDS,
  LIST_MAX_LIMIT,
  type AvatarList,
  type JobList,
  type JobListItem,
} from '../contract/lists.js';
import { base64url } from '../shared/ids.js';
import { finishedAt, isTerminal } from '../jobs/state.js';
import { findJob } from '../jobs/submit.js';
import type { IndexList, IndexPage, IndexQuery, IndexRow } from '../jobs/tenant-object.js';
import type { AppEnv } from './middleware.js';

type Position = NonNullable<IndexQuery['after']>;

/** Pure: the opaque cursor of a page's last row. */
export function encodeCursor(p: Position): string {
  return base64url(new TextEncoder().encode(JSON.stringify([p.created_at, p.video_id])));
}

/** Pure: the position a cursor names; a 400 naming `cursor` when it is not one this API made. */
export function decodeCursor(raw: string): Position {
  const refuse = () =>
    new ApiError('invalid_request', 'cursor is not a cursor from a previous page', { field: 'cursor' });
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(raw)) throw refuse();
  let value: unknown;
  try {
    value = JSON.parse(atob(raw.replace(/-/g, '+').replace(/_/g, '/')));
  } catch {
    throw refuse();
  }
  if (
    !Array.isArray(value) ||
    value.length !== 2 ||
    !Number.isSafeInteger(value[0]) ||
    typeof value[1] !== 'string' ||
    value[1].length > 64
  )
    throw refuse();
  return { created_at: value[0] as number, video_id: value[1] as string };
}

/** Pure: the index query of a list request's parameters; a 400 naming the parameter at fault. */
export function parseListQuery(list: IndexList, params: Record<string, string | undefined>): IndexQuery {
  const query: IndexQuery = { list, limit: LIST_DEFAULT_LIMIT };
  const { limit, cursor } = params;
  // The avatars list has no status or kind: they are ignored there, as any other parameter is.
  const { status, kind } = list === 'jobs' ? params : {};
  if (limit !== undefined) {
    const n = /^\d{1,3}$/.test(limit) ? Number(limit) : NaN;
    if (!(n >= 1 && n <= LIST_MAX_LIMIT))
      throw new ApiError('invalid_request', `limit must be a whole number from 1 to ${LIST_MAX_LIMIT}`, {
        field: 'limit',
      });
    query.limit = n;
  }
  if (cursor !== undefined) query.after = decodeCursor(cursor);
  if (status !== undefined) {
    if (!(JOB_STATUSES as readonly string[]).includes(status))
      throw new ApiError('invalid_request', `status must be one of ${JOB_STATUSES.join(', ')}`, {
        field: 'status',
      });
    query.status = status as JobStatus;
  }
  if (kind !== undefined) {
    if (!(LIST_KINDS as readonly string[]).includes(kind))
      throw new ApiError('invalid_request', `kind must be one of ${LIST_KINDS.join(', ')}`, {
        field: 'kind',
      });
    query.kind = kind as IndexRow['kind'];
  }
  return query;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

async function readPage(c: Context<AppEnv>, list: IndexList): Promise<IndexPage> {
  const query = parseListQuery(list, c.req.query());
  return (await tenantStub(c.env, c.get('tenant').id).listIndex(query)) as IndexPage;
}

export const listRoutes = new Hono<AppEnv>()
  .get('/api/jobs', async (c) => {
    c.header('Cache-Control', 'private, no-store');
    const page = await readPage(c, 'jobs');
    const tenant = c.get('tenant').id;
    // The index learns status changes, not every progress step: a running job's row is read live
    // (a key runs at most a few at once). One deleted meanwhile is left out.
    const items = await Promise.all(
      page.rows.map(async (row): Promise<JobListItem | null> => {
        const live = isTerminal(row.status) ? null : await findJob(c.env, row.video_id, tenant);
        if (!isTerminal(row.status) && !live) return null;
        const now = live ?? row;
        return {
          video_id: row.video_id,
          kind: row.kind as JobListItem['kind'],
          status: now.status,
          progress: now.progress,
          created_at: iso(row.created_at)!,
          finished_at: iso(live ? finishedAt(live) : row.finished_at),
        };
      }),
    );
    const body: JobList = {
      data: items.filter((i): i is JobListItem => i !== null),
      next_cursor: page.next ? encodeCursor(page.next) : null,
    };
    return c.json(body);
  })
  .get('/api/avatars', async (c) => {
    c.header('Cache-Control', 'private, no-store');
    const page = await readPage(c, 'avatars');
    const body: AvatarList = {
      data: page.rows.map((row) => ({ video_id: row.video_id, created_at: iso(row.created_at)! })),
      next_cursor: page.next ? encodeCursor(page.next) : null,
    };
    return c.json(body);
  });
