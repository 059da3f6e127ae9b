/**
 * @module jobs/tenant/job-index
 * The key's jobs and avatars as rows of one SQLite table in the tenant's storage, for the lists
 * (`GET /api/jobs`, `GET /api/avatars`): newest first by keyset pagination over an index on
 * (created_at, video_id), so a deep page costs what the first does whatever the key's count.
 * Rows are written by the Job objects at each status change (created, started, ended), removed when
 * a job or avatar is deleted, and hidden (then swept) once their retention has passed.
 */
import type { JobKind, JobStatus } from '../../contract/jobs.js';

/** What the index holds of one entry. Avatars are rows of kind `avatar`, always `completed`. */
export interface IndexRow {
  video_id: string;
  kind: JobKind | 'avatar';
  status: JobStatus;
  progress: number;
  created_at: number;
  finished_at: number | null;
  /** When retention removes it (ms); null while it runs, and for avatars (kept until deleted). */
  expires_at: number | null;
}

/** Which list a row belongs to: jobs (analysis, processing) or avatars. */
export type IndexList = 'jobs' | 'avatars';
export const listOf = (kind: IndexRow['kind']): IndexList => (kind === 'avatar' ? 'avatars' : 'jobs');

export interface IndexQuery {
  list: IndexList;
  kind?: IndexRow['kind'];
  status?: JobStatus;
  limit: number;
  /** The last row of the previous page (`created_at`, `video_id`), from the decoded cursor. */
  after?: { created_at: number; video_id: string };
}

export interface IndexPage {
  rows: IndexRow[];
  /** The last row of this page when more may follow; null on the last page. */
  next: { created_at: number; video_id: string } | null;
}

const COLUMNS = 'video_id, kind, status, progress, created_at, finished_at, expires_at';

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS job_index (
     video_id TEXT PRIMARY KEY,
     list TEXT NOT NULL,
     kind TEXT NOT NULL,
     status TEXT NOT NULL,
     progress REAL NOT NULL,
     created_at INTEGER NOT NULL,
     finished_at INTEGER,
     expires_at INTEGER
   )`,
  // One index per filter, each ending in the page order, so that every query walks one index in
  // order from the cursor and stops after `limit + 1` rows (EXPLAIN: no temporary B-tree).
  'CREATE INDEX IF NOT EXISTS job_index_list ON job_index (list, created_at, video_id)',
  'CREATE INDEX IF NOT EXISTS job_index_list_status ON job_index (list, status, created_at, video_id)',
  'CREATE INDEX IF NOT EXISTS job_index_kind ON job_index (kind, created_at, video_id)',
  'CREATE INDEX IF NOT EXISTS job_index_kind_status ON job_index (kind, status, created_at, video_id)',
  'CREATE INDEX IF NOT EXISTS job_index_expiry ON job_index (expires_at) WHERE expires_at IS NOT NULL',
];

export class JobIndex {
  constructor(private readonly sql: SqlStorage) {
    for (const statement of SCHEMA) sql.exec(statement);
  }

  /** Inserts or replaces the row (a later status of the same job replaces the earlier). */
  put(row: IndexRow): void {
    this.sql.exec(
      `INSERT INTO job_index (video_id, list, kind, status, progress, created_at, finished_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (video_id) DO UPDATE SET status = excluded.status, progress = excluded.progress,
         finished_at = excluded.finished_at, expires_at = excluded.expires_at`,
      row.video_id,
      listOf(row.kind),
      row.kind,
      row.status,
      row.progress,
      row.created_at,
      row.finished_at,
      row.expires_at,
    );
  }

  delete(videoId: string): boolean {
    return this.sql.exec('DELETE FROM job_index WHERE video_id = ?', videoId).rowsWritten > 0;
  }

  /** One page, newest first; `limit + 1` rows tell whether another page follows. */
  page(q: IndexQuery, now: number): IndexPage {
    const { sql, args } = pageQuery(q, now);
    const rows = this.sql.exec(sql, ...args).toArray() as unknown as IndexRow[];
    const more = rows.length > q.limit;
    const page = more ? rows.slice(0, q.limit) : rows;
    const last = page[page.length - 1];
    return {
      rows: page,
      next: more && last ? { created_at: last.created_at, video_id: last.video_id } : null,
    };
  }

  /** Deletes the rows whose retention has passed; returns how many rows still expire later. */
  sweep(now: number): number {
    this.sql.exec('DELETE FROM job_index WHERE expires_at IS NOT NULL AND expires_at <= ?', now);
    return this.sql
      .exec<{ n: number }>('SELECT count(*) AS n FROM job_index WHERE expires_at IS NOT NULL')
      .one().n;
  }
}

/** Pure: the SQL of one page and its arguments (the worker test reads its query plan). */
export function pageQuery(q: IndexQuery, now: number): { sql: string; args: (string | number)[] } {
  const where = [q.kind ? 'kind = ?' : 'list = ?'];
  const args: (string | number)[] = [q.kind ?? q.list];
  if (q.status) {
    where.push('status = ?');
    args.push(q.status);
  }
  if (q.after) {
    where.push('(created_at, video_id) < (?, ?)');
    args.push(q.after.created_at, q.after.video_id);
  }
  // Checked on the rows the index walk yields, not by an index of its own: expired rows are few
  // (the sweep deletes them within the hour), so the walk skips at most those.
  where.push('(expires_at IS NULL OR expires_at > ?)');
  args.push(now, q.limit + 1);
  return {
    sql: `SELECT ${COLUMNS} FROM job_index WHERE ${where.join(' AND ')} ORDER BY created_at DESC, video_id DESC LIMIT ?`,
    args,
  };
}
