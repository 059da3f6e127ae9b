/**
 * GET /render/probe: the probe a job's render made of the source it was sent, so a processing job's
 * source crosses to the container once (render-probes.ts). Through the whole media app: the job id
 * is the request's work scope's.
 */
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SHARED_MEDIA } from '../support/services.js';

// A short wait for a render that never comes (read when the module loads).
process.env.RENDER_PROBE_WAIT_MS = '400';
const { createMediaApp } = await import('../../containers/media/server/server.js');

const CLIP = join(SHARED_MEDIA, 'talking_head', 'retalking_face3.mp4'); // 590², 25 fps, 5 s
const tmp = mkdtempSync(join(tmpdir(), 'render-probe-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const app = createMediaApp();

// A tenant per job: a job's response holds its key's one slot until its body is read.
const jobHeaders = (jobId: string) => ({ 'x-job-id': jobId, 'x-tenant-id': `dev_${jobId}` });

function render(jobId: string, source: Buffer) {
  const fd = new FormData();
  fd.set('source', new Blob([source]), 'source.mp4');
  fd.set('options', JSON.stringify({ blur_background: false }));
  return app.request('/render', { method: 'POST', body: fd, headers: jobHeaders(jobId) });
}
const askProbe = (jobId: string) => app.request('/render/probe', { headers: jobHeaders(jobId) });
const probeRoute = (path: string) => app.request('/probe', { method: 'POST', body: readFileSync(path) });

describe('GET /render/probe', () => {
  it("should answer with the render's probe of its source, asked before the render arrived", async () => {
    const asked = askProbe('vid_probe_first_00000');
    const rendered = render('vid_probe_first_00000', readFileSync(CLIP));
    const res = await asked;
    expect(res.status).toBe(200);
    const probe = (await res.json()) as { duration_sec: number; video: { width: number; height: number } };
    expect(probe.video).toMatchObject({ width: 590, height: 590 });
    expect(Math.abs(probe.duration_sec - 5)).toBeLessThan(0.1);
    const output = await rendered;
    expect(output.status).toBe(200);
    await output.arrayBuffer();
    // Asked again after the render ended: the same answer, kept for a while.
    expect(await (await askProbe('vid_probe_first_00000')).json()).toEqual(probe);
  });

  it('should answer as POST /probe does: a refusal for what is not media, the streams of what has no video', async () => {
    const junk = join(tmp, 'junk.mp4');
    writeFileSync(junk, Buffer.alloc(5000, 7));
    const [rendered, asked] = await Promise.all([
      render('vid_probe_junk_000000', readFileSync(junk)),
      askProbe('vid_probe_junk_000000'),
    ]);
    expect(rendered.status).toBe(422);
    expect(asked.status).toBe(422);
    expect(await asked.json()).toEqual(await (await probeRoute(junk)).json());
    const speech = join(SHARED_MEDIA, 'containers', 'jfk.mp3');
    const [audioOnly, told] = await Promise.all([
      render('vid_probe_audio_00000', readFileSync(speech)),
      askProbe('vid_probe_audio_00000'),
    ]);
    expect(audioOnly.status).toBe(422);
    expect(told.status).toBe(200);
    const probe = (await told.json()) as { video: unknown; audio: { codec: string } };
    expect(probe).toEqual(await (await probeRoute(speech)).json());
    expect(probe.video).toBeNull();
    expect(probe.audio.codec).toBe('mp3');
  });

  it('should say 404 when no render of the job starts within the wait, and 400 without a job', async () => {
    const started = Date.now();
    const res = await askProbe('vid_probe_none_000000');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('no_render');
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    expect((await app.request('/render/probe')).status).toBe(400);
  });
});
