/**
 * The person segmenter as a child process of the render (segment/process-segmenter.ts): real
 * model, real frames; it answers in order, and the job's DELETE reaches it like any ffmpeg.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createProcessSegmenter } from '../../containers/media/engines/segment/index.js';
import { configFrom } from '../../containers/media/core/config.js';
import { abortJob, openScope, runInScope } from '../../containers/media/core/work-scope.js';
import { childrenLeftAfter, liveChildPids } from '../support/child-pids.js';
import { SHARED_MEDIA } from '../support/services.js';

const CLIP = join(SHARED_MEDIA, 'talking_head/retalking_face2.mp4'); // 844², person centred

/** One frame of CLIP at `sec`, RGB at 256² (or through another filter, e.g. to a wide picture). */
const frame = (sec: number, vf = 'scale=256:256') =>
  new Uint8Array(
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-ss',
      String(sec),
      '-i',
      CLIP,
      '-frames:v',
      '1',
      '-vf',
      `${vf},format=rgb24`,
      '-f',
      'rawvideo',
      'pipe:1',
    ]),
  );

/** Running segmenter processes (native or TF.js) started by this test process. */
const SEGMENTER_CHILD = /segmenter-process|vision_worker\.py segment/;

describe('segmenter process', () => {
  it('should find the person in the centre and not in the corner, answering overlapping calls in order', async () => {
    using seg = createProcessSegmenter();
    const [a, b] = await Promise.all([seg.segment(frame(1)), seg.segment(frame(3))]);
    for (const p of [a, b]) {
      expect(p.length).toBe(256 * 256);
      expect(p[128 * 256 + 128]).toBeGreaterThan(0.8); // nose
      expect(p[10 * 256 + 10]).toBeLessThan(0.2); // wall, top-left
    }
  });

  it('should take the landscape model for wide video, and find the person at its size', async () => {
    using seg = createProcessSegmenter();
    seg.fitVideo?.(1280, 720);
    expect([seg.name, seg.inputWidth, seg.inputHeight]).toEqual(['mediapipe-selfie-landscape', 256, 144]);
    // The 844² clip in the middle of a 16:9 picture, black at its sides.
    const p = await seg.segment(frame(1, 'scale=144:144,pad=256:144:56:0'));
    expect(p.length).toBe(256 * 144);
    expect(p[72 * 256 + 128]).toBeGreaterThan(0.8); // nose
    expect(p[10 * 256 + 10]).toBeLessThan(0.2); // black side, top-left
  });

  it('should keep the square model for 4:3 and portrait video, and when BLUR_LANDSCAPE_MODEL=0', async () => {
    for (const [w, h, env] of [
      [640, 480, {}],
      [720, 1280, {}],
      [1280, 720, { BLUR_LANDSCAPE_MODEL: '0' }],
    ] as const) {
      using seg = createProcessSegmenter({ landscape: configFrom(env).render.blur.landscapeModel });
      seg.fitVideo?.(w, h);
      expect([seg.name, seg.inputWidth, seg.inputHeight]).toEqual(['mediapipe-selfie', 256, 256]);
      expect((await seg.segment(frame(1)))[128 * 256 + 128]).toBeGreaterThan(0.8);
    }
  });

  it('should be killed when the job is deleted, failing the waiting call', async () => {
    const scope = openScope({ jobId: 'vid_segmentersegmenter00' });
    const seg = runInScope(scope, () => createProcessSegmenter());
    await seg.segment(frame(1)); // the model is loaded and the process is running
    expect(liveChildPids(SEGMENTER_CHILD).length).toBe(1);
    const waiting = seg.segment(frame(2));
    abortJob('vid_segmentersegmenter00');
    await expect(waiting).rejects.toThrow();
    expect(await childrenLeftAfter(SEGMENTER_CHILD)).toEqual([]);
    seg.dispose();
  });
});
