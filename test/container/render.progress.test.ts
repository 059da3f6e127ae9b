/**
 * GET /render/progress/{job}: how far a job's render has encoded, read from its encoder's progress
 * lines while it runs (render-progress.ts), so the Worker can move the job's progress during the
 * render. Through the whole media app.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMediaApp } from '../../containers/media/server/server.js';
import { SHARED_MEDIA } from '../support/services.js';

const tmp = mkdtempSync(join(tmpdir(), 'render-progress-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
// 20 s of talking head (5 s played four times, its packets copied): long enough for several progress lines.
const CLIP = join(tmp, 'head-20s.mp4');
execFileSync('ffmpeg', [
  ...['-v', 'error', '-stream_loop', '3', '-i', join(SHARED_MEDIA, 'talking_head', 'retalking_face3.mp4')],
  ...['-c', 'copy', CLIP],
]);
const app = createMediaApp();

const progressOf = async (jobId: string) => {
  const res = await app.request(`/render/progress/${jobId}`);
  return res.status === 200 ? ((await res.json()) as { fraction: number }).fraction : res.status;
};

describe('GET /render/progress/{job}', () => {
  it("should follow the render's encoder from 0 to 1, and know no job that did not render here", async () => {
    expect(await progressOf('vid_progress_unknown_0')).toBe(404);
    const jobId = 'vid_progress_blur_00000';
    const fd = new FormData();
    fd.set('source', new Blob([readFileSync(CLIP)]), 'source.mp4');
    fd.set('options', JSON.stringify({ blur_background: true }));
    let ended = false;
    const rendered = Promise.resolve(
      app.request('/render', {
        method: 'POST',
        body: fd,
        headers: { 'x-job-id': jobId, 'x-tenant-id': 'dev_progress' },
      }),
    ).finally(() => (ended = true));
    const seen: number[] = [];
    while (!ended) {
      const f = await progressOf(jobId);
      if (typeof f === 'number') seen.push(f);
      await new Promise((r) => setTimeout(r, 100));
    }
    const res = await rendered;
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    // Never backwards, some figures on the way, and the whole output once it is written.
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.filter((f) => f > 0.05 && f < 0.95).length).toBeGreaterThanOrEqual(2);
    expect(await progressOf(jobId)).toBeGreaterThanOrEqual(0.98);
  });
});
