import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { pageQuery, type IndexRow } from '../../src/jobs/tenant/job-index.js';
import type { TenantObject } from '../../src/jobs/tenant-object.js';
import { call, expectError, fixture, post, waitForJob } from './helpers.js';

interface Listed {
  data: {
    video_id: string;
    kind: string;
    status: string;
    progress: number;
    created_at: string;
    finished_at: string | null;
  }[];
  next_cursor: string | null;
}

/** A fresh key (its own tenant object, so its list starts empty). */
async function newKey(): Promise<{ key: string; tenant: string }> {
  const res = await call('/admin/keys', {
    method: 'POST',
    key: null,
    headers: { authorization: 'Bearer test-admin-token', 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'lists', limits: { requests_per_minute: 10_000 } }),
  });
  expect(res.status).toBe(201);
  return res.json();
}

const tenantStub = (tenant: string) => env.TENANT.get(env.TENANT.idFromName(tenant));

async function list(path: string, key: string): Promise<Listed> {
  const res = await call(path, { key });
  expect(res.status).toBe(200);
  return res.json<Listed>();
}

/** Every page of `path` (which has no query yet, or ends in one), following next_cursor. */
async function allPages(path: string, key: string): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const page: Listed = await list(cursor ? `${path}${sep}cursor=${cursor}` : path, key);
    ids.push(...page.data.map((d) => d.video_id));
    cursor = page.next_cursor;
    pages++;
  } while (cursor);
  return { ids, pages };
}

const row = (i: number, over: Partial<IndexRow> = {}): IndexRow => ({
  video_id: `vid_${String(i).padStart(22, '0')}`,
  kind: i % 3 === 0 ? 'processing' : 'analysis',
  status: i % 5 === 0 ? 'failed' : 'completed',
  progress: 100,
  // Every 7 jobs share a millisecond: the order must still be total (video_id breaks ties).
  created_at: 1_800_000_000_000 + Math.floor(i / 7),
  finished_at: 1_800_000_000_000 + Math.floor(i / 7) + 5,
  expires_at: null,
  ...over,
});

describe('GET /api/jobs', () => {
  it('should page through a few hundred jobs newest first, each once, filtered by status and kind', async () => {
    const { key, tenant } = await newKey();
    const rows = Array.from({ length: 350 }, (_, i) => row(i));
    await runInDurableObject(tenantStub(tenant), async (o: TenantObject) => {
      for (const r of rows) await o.indexJob(r);
    });
    const newestFirst = [...rows]
      .sort((a, b) => b.created_at - a.created_at || (a.video_id < b.video_id ? 1 : -1))
      .map((r) => r.video_id);

    const first = await list('/api/jobs', key);
    expect(first.data).toHaveLength(20);
    expect(first.data[0]).toEqual({
      video_id: newestFirst[0],
      kind: 'analysis',
      status: 'completed',
      progress: 100,
      created_at: new Date(rows[349].created_at).toISOString(),
      finished_at: new Date(rows[349].finished_at!).toISOString(),
    });

    const all = await allPages('/api/jobs?limit=37', key);
    expect(all.ids).toEqual(newestFirst);
    expect(all.pages).toBe(Math.ceil(350 / 37));

    const failed = await allPages('/api/jobs?status=failed&limit=100', key);
    expect(failed.ids).toEqual(newestFirst.filter((id) => Number(id.slice(4)) % 5 === 0));
    const processing = await allPages('/api/jobs?kind=processing&limit=100', key);
    expect(processing.ids).toEqual(newestFirst.filter((id) => Number(id.slice(4)) % 3 === 0));
    const both = await allPages('/api/jobs?kind=processing&status=failed&limit=7', key);
    expect(both.ids).toEqual(newestFirst.filter((id) => Number(id.slice(4)) % 15 === 0));
  });

  it('should walk an index in page order for every filter (no sort of the whole key)', async () => {
    const { tenant } = await newKey();
    await runInDurableObject(tenantStub(tenant), async (o: TenantObject, state) => {
      await o.indexJob(row(1));
      const after = { created_at: 1, video_id: 'vid_x' };
      for (const q of [
        { list: 'jobs' as const, limit: 20 },
        { list: 'jobs' as const, limit: 20, after },
        { list: 'jobs' as const, limit: 20, status: 'completed' as const, after },
        { list: 'jobs' as const, limit: 20, kind: 'analysis' as const, after },
        { list: 'jobs' as const, limit: 20, kind: 'analysis' as const, status: 'failed' as const },
        { list: 'avatars' as const, limit: 20, after },
      ]) {
        const { sql, args } = pageQuery(q, Date.now());
        const plan = state.storage.sql
          .exec<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, ...args)
          .toArray()
          .map((r) => r.detail)
          .join('; ');
        expect(plan).toMatch(/USING (COVERING )?INDEX job_index_/);
        expect(plan).not.toMatch(/TEMP B-TREE/);
      }
    });
  });

  it("should list a real job from creation to its end, never another key's, and drop it once deleted or expired", async () => {
    const alice = await newKey();
    const bob = await newKey();
    const res = await post(
      '/api/analyze-video',
      { file: { bytes: await fixture('generated/binary-junk.mp4'), filename: 'junk.mp4' } },
      alice.key,
    );
    const { video_id } = await res.json<{ video_id: string }>();
    const early = await list('/api/jobs', alice.key);
    expect(early.data.map((d) => d.video_id)).toEqual([video_id]);
    expect(['pending', 'processing', 'failed']).toContain(early.data[0].status);
    expect((await list('/api/jobs', bob.key)).data).toEqual([]);

    await waitForJob(video_id, alice.key);
    const ended = await list('/api/jobs?status=failed', alice.key);
    expect(ended.data).toHaveLength(1);
    expect(ended.data[0].finished_at).not.toBeNull();
    expect(ended.next_cursor).toBeNull();
    expect((await list('/api/jobs?status=completed', alice.key)).data).toEqual([]);

    expect((await call(`/api/jobs/${video_id}`, { method: 'DELETE', key: alice.key })).status).toBe(204);
    expect((await list('/api/jobs', alice.key)).data).toEqual([]);

    // A row whose retention passed is hidden before the sweep deletes it.
    await runInDurableObject(tenantStub(alice.tenant), async (o: TenantObject) => {
      await o.indexJob(row(1, { expires_at: Date.now() - 1 }));
      await o.indexJob(row(2, { expires_at: Date.now() + 60_000 }));
    });
    expect((await list('/api/jobs', alice.key)).data.map((d) => d.video_id)).toEqual([row(2).video_id]);
  });

  it('should refuse bad parameters with a 400 naming them', async () => {
    const { key } = await newKey();
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=abc', 'limit'],
      ['status=done', 'status'],
      ['kind=avatar', 'kind'],
      ['cursor=not-a-cursor', 'cursor'],
      ['cursor=' + btoa('{"a":1}'), 'cursor'],
    ])
      await expectError(await call(`/api/jobs?${query}`, { key }), 400, 'invalid_request', field);
  });
});

describe('GET /api/avatars', () => {
  it('should list registered avatars newest first and forget deleted ones', async () => {
    const { key } = await newKey();
    const video = await fixture('generated/tone-3s.mp4');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await post(
        '/api/register-avatar',
        { file: { bytes: video, filename: 'a.mp4', type: 'video/mp4' } },
        key,
      );
      expect(res.status).toBe(200);
      ids.push((await res.json<{ video_id: string }>()).video_id);
      await new Promise((r) => setTimeout(r, 5));
    }
    const page1 = await list('/api/avatars?limit=2', key);
    expect(page1.data.map((d) => d.video_id)).toEqual([ids[2], ids[1]]);
    const page2 = await list(`/api/avatars?limit=2&cursor=${page1.next_cursor}`, key);
    expect(page2.data.map((d) => d.video_id)).toEqual([ids[0]]);
    expect(page2.next_cursor).toBeNull();
    // Avatars are not jobs.
    expect((await list('/api/jobs', key)).data).toEqual([]);
    expect((await call(`/api/avatars/${ids[1]}`, { method: 'DELETE', key })).status).toBe(204);
    expect((await list('/api/avatars', key)).data.map((d) => d.video_id)).toEqual([ids[2], ids[0]]);
  });
});
