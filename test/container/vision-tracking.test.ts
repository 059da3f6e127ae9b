/**
 * Face tracking and the hand model's skip, against the engine that runs every model on every
 * frame: tracking must find the face in the same frames, in the same place, also when the face
 * jumps across the picture (a cut), and the skip must keep every accepted hand.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FrameObservation } from '../../src/contract/media.js';
import { frameHands } from '../../src/analytics/visual/index.js';
import { decodeFrames } from '../../containers/media/engines/vision/frames.js';
import { createHumanEngine, type HumanEngine } from '../../containers/media/engines/vision/human/engine.js';
import type { HumanConfigOptions } from '../../containers/media/engines/vision/human/config.js';
import { mediaPath, readLabels } from '../fixtures/visual/run-vision.js';

const labels = readLabels();
const FACE = mediaPath(labels, 'talking_head/retalking_face1.mp4');
const S13 = mediaPath(labels, 'gesture/liveportrait_s13_arms.mp4');
const work = mkdtempSync(path.join(tmpdir(), 'vision-tracking-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function observeAll(file: string, options: HumanConfigOptions, fps = 2): Promise<FrameObservation[]> {
  const engine: HumanEngine = await createHumanEngine(options);
  const out: FrameObservation[] = [];
  for await (const frame of decodeFrames(file, { fps })) out.push((await engine.observe(frame)).observation);
  return out;
}

const centre = (box: [number, number, number, number]) => [box[0] + box[2] / 2, box[1] + box[3] / 2];

describe.skipIf(!FACE || !S13)('face tracking and the hand skip', () => {
  it('should find the face in the same frames and place as the detector does, across a cut', async () => {
    // 3 s of the face on the left of a 640×360 picture, then 3 s of it on the right: the track
    // of the left face is lost at the cut and the detector must take over on that frame.
    const clip = path.join(work, 'jump.mp4');
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-i',
      FACE!,
      '-filter_complex',
      '[0:v]scale=-2:300,split[a][b];[a]trim=0:3,setpts=PTS-STARTPTS,pad=640:360:0:30[l];[b]trim=3:6,setpts=PTS-STARTPTS,pad=640:360:330:30[r];[l][r]concat=n=2:v=1[v]',
      '-map',
      '[v]',
      '-an',
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      clip,
    ]);
    const every = await observeAll(clip, { faceTracking: false });
    const tracked = await observeAll(clip, { faceTracking: true });
    expect(tracked.map((f) => f.face !== null)).toEqual(every.map((f) => f.face !== null));
    expect(every.filter((f) => f.face).length).toBeGreaterThanOrEqual(every.length - 1);
    tracked.forEach((f, i) => {
      const a = every[i].face;
      if (!a || !f.face) return;
      const [ax, ay] = centre(a.box);
      const [bx, by] = centre(f.face.box);
      expect(Math.hypot(ax - bx, ay - by), `face centre at ${f.time}s`).toBeLessThan(0.15 * a.box[2]);
    });
  });

  it('should accept the same hands with the hand model skipped where no wrist is seen', async () => {
    const always = await observeAll(S13!, { handsWhen: 'always', faceTracking: false });
    const skipped = await observeAll(S13!, { handsWhen: 'visible-wrist', faceTracking: false });
    const accepted = (frames: FrameObservation[]) =>
      frames.map((f) => {
        const h = frameHands(f);
        return [h.left?.gesture ?? null, h.right?.gesture ?? null];
      });
    expect(accepted(skipped)).toEqual(accepted(always));
  });
});
