/**
 * A job's stored source (`PUT /jobs/{id}/source`, then `x-stored-source: 1`) on the real service:
 * the same answers as the body gives, bound to its job and tenant, bounded, removed when the job
 * ends, when idle, and with a service that is gone.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMediaApp } from '../../containers/media/server/server.js';
import {
  removeSourcesRoot,
  sourcesRoot,
  sweepIdleJobSources,
  sweepOrphanSourceRoots,
  useJobSource,
} from '../../containers/media/core/job-sources.js';
import {
  MEDIA_HEADERS as H,
  MEDIA_ROUTES,
  mediaPath,
  SOURCE_MISSING,
} from '../../src/contract/media-protocol.js';
import { SHARED_MEDIA } from '../support/services.js';

const app = createMediaApp();
const clip = readFileSync(join(SHARED_MEDIA, 'talking_head/retalking_face3.mp4'));
const hints = { [H.sourceFilename]: 'retalking_face3.mp4', [H.sourceContentType]: 'video/mp4' };

const put = (job: string, tenant: string | null, body: BodyInit | null, extra: Record<string, string> = {}) =>
  app.request(mediaPath.jobSource(job), {
    method: 'PUT',
    body,
    headers: { ...hints, ...(tenant ? { [H.tenantId]: tenant } : {}), ...extra },
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);

/** A request on the job's stored source (no body). */
const onStored = (path: string, job: string, tenant: string | null) =>
  app.request(path, {
    method: 'POST',
    headers: { ...hints, [H.jobId]: job, ...(tenant ? { [H.tenantId]: tenant } : {}), [H.storedSource]: '1' },
  });
const withBody = (path: string) => app.request(path, { method: 'POST', body: clip, headers: hints });

const errorCode = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

afterAll(async () => {
  await app.request(mediaPath.job('vid_storedA'), { method: 'DELETE' });
  await removeSourcesRoot();
});

describe('a job source stored once', () => {
  it('should answer probe, audio and vision on the stored source as on the body', async () => {
    const stored = await put('vid_storedA', 'tenant_a', clip);
    expect(stored.status).toBe(201);
    expect(await stored.json()).toEqual({ bytes: clip.length });

    const probe = await onStored(MEDIA_ROUTES.probe, 'vid_storedA', 'tenant_a');
    expect(probe.status).toBe(200);
    expect(await probe.json()).toEqual(await (await withBody(MEDIA_ROUTES.probe)).json());

    const audio = await onStored(MEDIA_ROUTES.audio, 'vid_storedA', 'tenant_a');
    expect(audio.status).toBe(200);
    const pcm = new Uint8Array(await audio.arrayBuffer());
    expect(pcm.length).toBeGreaterThan(32_000);
    expect(pcm).toEqual(new Uint8Array(await (await withBody(MEDIA_ROUTES.audio)).arrayBuffer()));

    const vision = await onStored(mediaPath.vision(1), 'vid_storedA', 'tenant_a');
    expect(vision.status).toBe(200);
    const lines = (await vision.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.at(-1)).toMatchObject({ done: true });
    expect(lines.length).toBeGreaterThan(3);
  });

  it("should not let another tenant, or no tenant, read a job's source", async () => {
    await put('vid_storedB', 'tenant_a', clip);
    for (const tenant of ['tenant_b', null]) {
      const res = await onStored(MEDIA_ROUTES.probe, 'vid_storedB', tenant);
      expect(res.status).toBe(404);
      expect(await errorCode(res)).toBe(SOURCE_MISSING);
    }
    expect((await onStored(MEDIA_ROUTES.probe, 'vid_storedB', 'tenant_a')).status).toBe(200);
    await app.request(mediaPath.job('vid_storedB'), { method: 'DELETE' });
  });

  it('should remove the source when the job ends (DELETE), then answer that it is not stored', async () => {
    await put('vid_storedC', 'tenant_a', clip);
    const ended = await app.request(mediaPath.job('vid_storedC'), { method: 'DELETE' });
    expect(ended.status).toBe(200);
    expect(existsSync(join(await sourcesRoot(), 'vid_storedC'))).toBe(false);
    const res = await onStored(MEDIA_ROUTES.vision, 'vid_storedC', 'tenant_a');
    expect(res.status).toBe(404);
    expect(await errorCode(res)).toBe(SOURCE_MISSING);
  });

  it('should render the stored source when the form names it, and say 404 when it is gone', async () => {
    await put('vid_storedR', 'tenant_r', clip);
    const render = () => {
      const form = new FormData();
      form.set('options', JSON.stringify({ blur_background: false }));
      return app.request(MEDIA_ROUTES.render, {
        method: 'POST',
        body: form,
        headers: { ...hints, [H.jobId]: 'vid_storedR', [H.tenantId]: 'tenant_r', [H.storedSource]: '1' },
      });
    };
    const res = await render();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get(H.renderReport)).toBeTruthy();
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
    await app.request(mediaPath.job('vid_storedR'), { method: 'DELETE' });
    const gone = await render();
    expect(gone.status).toBe(404);
    expect(await errorCode(gone)).toBe(SOURCE_MISSING);
  });

  it('should refuse job ids that are not one plain path segment', async () => {
    // A bare `..` segment never reaches a route (URLs resolve it); an encoded slash does.
    for (const id of ['../etc', '.hidden', 'a.b', 'x'.repeat(129)]) {
      const res = await put(id, 'tenant_a', clip);
      expect(res.status, id).toBe(400);
      expect(await errorCode(res)).toBe('invalid_job_id');
    }
    const res = await onStored(MEDIA_ROUTES.probe, '../../etc', 'tenant_a');
    expect(res.status).toBe(400);
    expect(await errorCode(res)).toBe('invalid_job_id');
  });

  it('should refuse a source beyond x-max-source-bytes and an empty one, keeping nothing', async () => {
    const big = await put('vid_storedD', 'tenant_a', clip, { [H.maxSourceBytes]: String(clip.length - 1) });
    expect(big.status).toBe(413);
    expect(await errorCode(big)).toBe('payload_too_large');
    const empty = await put('vid_storedD', 'tenant_a', new Uint8Array(0));
    expect(empty.status).toBe(400);
    expect((await onStored(MEDIA_ROUTES.probe, 'vid_storedD', 'tenant_a')).status).toBe(404);
    await app.request(mediaPath.job('vid_storedD'), { method: 'DELETE' });
  });

  it('should stream the upload to disk: memory does not grow with its size', async () => {
    const total = 512 * 2 ** 20;
    const chunk = new Uint8Array(2 ** 20).fill(7);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent >= total) return c.close();
        sent += chunk.length;
        c.enqueue(chunk);
      },
    });
    const before = process.memoryUsage().rss;
    const res = await put('vid_storedE', 'tenant_a', body);
    const grown = process.memoryUsage().rss - before;
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ bytes: total });
    expect(grown).toBeLessThan(128 * 2 ** 20);
    await app.request(mediaPath.job('vid_storedE'), { method: 'DELETE' });
  });
});

describe('sweeping stored sources', () => {
  it('should remove sources idle past their TTL, but not one being read', async () => {
    await put('vid_idleA', 'tenant_a', clip);
    await put('vid_idleB', 'tenant_a', clip);
    const reading = await useJobSource('vid_idleB', 'tenant_a');
    const later = Date.now() + 10_000;
    expect(await sweepIdleJobSources(60_000, later)).toEqual([]);
    const removed = await sweepIdleJobSources(5_000, later);
    expect(removed).toContain('vid_idleA');
    expect(removed).not.toContain('vid_idleB');
    await reading[Symbol.asyncDispose]();
    expect(await sweepIdleJobSources(5_000, later)).toContain('vid_idleB');
  });

  it('should remove the directories of services that are gone, not of one still running', async () => {
    const base = mkdtempSync(join(tmpdir(), 'sources-sweep-'));
    try {
      const dead = spawnSync('true').pid!;
      const root = (name: string, pid: number) => {
        mkdirSync(join(base, name, 'vid_x'), { recursive: true });
        writeFileSync(join(base, name, 'owner.pid'), String(pid));
      };
      root('media-sources-dead01', dead);
      root('media-sources-alive1', process.ppid);
      root('media-sources-mine01', process.pid); // a previous life of this service
      mkdirSync(join(base, 'unrelated-dir'));
      const removed = await sweepOrphanSourceRoots(base);
      expect(removed.sort()).toEqual(['media-sources-dead01', 'media-sources-mine01']);
      expect(existsSync(join(base, 'media-sources-alive1'))).toBe(true);
      expect(existsSync(join(base, 'unrelated-dir'))).toBe(true);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
