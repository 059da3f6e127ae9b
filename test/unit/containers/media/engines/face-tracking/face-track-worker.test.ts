import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFaceTracker } from '../../../../../../containers/media/engines/face-tracking/face-track.js';
import { createFaceTrackerThread } from '../../../../../../containers/media/engines/face-tracking/face-track-worker.js';
import { SHARED_MEDIA } from '../../../../../support/services.js';

const CLIP = join(SHARED_MEDIA, 'talking_head/retalking_face2.mp4');
const W = 480,
  H = 480;

/** Frames `at` seconds into the clip as 480² RGB (real pixels, real face). */
const frameAt = (at: number) =>
  new Uint8Array(
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-ss',
      String(at),
      '-i',
      CLIP,
      '-frames:v',
      '1',
      '-vf',
      `scale=${W}:${H}`,
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      'pipe:1',
    ]),
  );

describe('createFaceTrackerThread', () => {
  it(
    'answers several frames in flight, in order, as the same-thread tracker does',
    { timeout: 120_000 },
    async () => {
      const frames = [0.2, 1.0, 2.0].map(frameAt);
      const inline = await createFaceTracker({ iris: true });
      const expected = [];
      for (const f of frames) expected.push(await inline.detect(f.slice(), W, H));
      const thread = await createFaceTrackerThread({ iris: true });
      try {
        expect(thread.pipelined).toBe(true);
        // All three posted before the first answer is awaited.
        const answers = await Promise.all(frames.map((f) => thread.detect(f.slice(), W, H)));
        for (const [i, face] of answers.entries()) {
          expect(face?.mesh.length).toBe(478);
          const want = expected[i]!.mesh;
          const worst = Math.max(
            ...face!.mesh.map((p, k) => Math.hypot(p[0] - want[k][0], p[1] - want[k][1])),
          );
          expect(worst).toBeLessThan(0.5);
        }
      } finally {
        thread.dispose();
      }
    },
  );

  it(
    'rejects what is still in flight once disposed, refuses new frames, and ends the thread',
    { timeout: 120_000 },
    async () => {
      const ports = () => process.getActiveResourcesInfo().filter((r) => r === 'MessagePort').length;
      await new Promise((r) => setTimeout(r, 500)); // the previous test's thread finishes closing
      const before = ports();
      const thread = await createFaceTrackerThread({ iris: false });
      expect(ports()).toBe(before + 1);
      const pending = thread.detect(frameAt(0.5), W, H);
      thread.dispose();
      await expect(pending).rejects.toThrow(/disposed/);
      await expect(thread.detect(frameAt(0.5), W, H)).rejects.toThrow(/disposed/);
      // The thread is gone, not just idle: its message port closes.
      await expect.poll(ports, { timeout: 5000 }).toBe(before);
    },
  );
});
