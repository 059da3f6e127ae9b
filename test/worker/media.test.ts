/**
 * Every clip of ../shared/media/containers and ../shared/media/talking_head goes through the
 * real pipeline: analysis completes with the right duration, processing (video clips) yields an
 * MP4; audio-only files given to process-video fail with a clear message (documented).
 */
import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { AnalysisResult } from '../../src/contract/result.js';
import { fixture, post, waitForJob } from './helpers.js';

interface Clip {
  file: string;
  duration: number;
  video: boolean;
}

async function sharedClips(): Promise<Clip[]> {
  const res = await fetch(`${env.FIXTURES_URL}/shared/MANIFEST.tsv`);
  if (!res.ok) return [];
  const [header, ...rows] = (await res.text())
    .trim()
    .split('\n')
    .map((l) => l.split('\t'));
  const col = (name: string) => header.indexOf(name);
  return rows
    .filter((r) => /^(containers|talking_head)\//.test(r[col('file')]))
    .map((r) => ({
      file: r[col('file')],
      duration: Number(r[col('duration_s')]),
      video: /\.(mp4|webm|mkv|mov|avi)$/.test(r[col('file')]),
    }));
}

describe('every shared clip through the pipeline', () => {
  it('should analyze and process each container/codec', async (ctx) => {
    const clips = await sharedClips();
    if (clips.length === 0) ctx.skip();
    // One clip at a time: each job gets its own time budget on a busy 2-core machine.
    for (const clip of clips) {
      const file = { bytes: await fixture(`shared/${clip.file}`), filename: clip.file.split('/').pop() };
      const analysis = await (await post('/api/analyze-video', { file })).json<{ video_id: string }>();
      const processing = await (
        await post('/api/process-video', { file, blur_background: 'false' })
      ).json<{ video_id: string }>();
      const job = { clip, analysis: analysis.video_id, processing: processing.video_id };
      const started = Date.now();
      const a = await waitForJob(job.analysis, undefined, 180_000);
      expect(a.error_message, job.clip.file).toBeNull();
      const result = AnalysisResult.parse(a.result);
      expect(Math.abs(result.summary.duration_sec - job.clip.duration), job.clip.file).toBeLessThan(0.2);

      const p = await waitForJob(job.processing, undefined, 180_000);
      if (job.clip.video) {
        expect(p.status, `${job.clip.file}: ${p.error_message}`).toBe('completed');
        const head = await SELF.fetch(p.download_url!, { method: 'HEAD' });
        expect(head.status).toBe(200);
        expect(Number(head.headers.get('content-length'))).toBeGreaterThan(10_000);
      } else {
        expect(p.status).toBe('failed');
        expect(p.error_message).toMatch(/no video stream/);
      }
      console.log(`${clip.file}: analysis + processing in ${Date.now() - started} ms`);
    }
  }, 1_200_000);
});
