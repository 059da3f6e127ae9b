/**
 * MediaPipe's native face mesh and selfie segmenter (python/vision_worker.py behind the
 * FaceTracker and Segmenter ports): on real talking heads they must agree with the TF.js models
 * the engines used before (Human's face mesh and iris, the TF.js selfie model), which stay the
 * fallback and the gaze measure's independent judge.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFaceTracker, type FaceMesh } from '../../containers/media/engines/face-tracking/face-track.js';
import { createNativeFaceTracker } from '../../containers/media/engines/face-tracking/face-track-native.js';
import { createProcessSegmenter } from '../../containers/media/engines/segment/index.js';
import { configFrom } from '../../containers/media/core/config.js';
import { nativeVision } from '../../containers/media/core/venv.js';
import { abortJob, openScope, runInScope } from '../../containers/media/core/work-scope.js';
import { childrenLeftAfter, liveChildPids } from '../support/child-pids.js';
import { SHARED_MEDIA } from '../support/services.js';

const WIDTH = 480;
const HEADS = ['retalking_face1.mp4', 'retalking_face3.mp4', 'sadtalker_wda_katiehill.mp4'];

/** `count` frames of a clip from `fromSec`, 5 per second, RGB at `width`×`width·h/w`. */
function frames(clip: string, width: number, count: number, vf = `scale=${width}:-2`) {
  const raw = execFileSync(
    'ffmpeg',
    [
      '-v',
      'error',
      '-i',
      join(SHARED_MEDIA, 'talking_head', clip),
      '-vf',
      `fps=5,${vf},format=rgb24`,
      '-frames:v',
      String(count),
      '-f',
      'rawvideo',
      'pipe:1',
    ],
    { maxBuffer: 1 << 28 },
  );
  const probe = execFileSync('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=width,height',
    '-of',
    'csv=p=0',
    join(SHARED_MEDIA, 'talking_head', clip),
  ])
    .toString()
    .split(',')
    .map(Number);
  const height = vf.startsWith('scale=256:256') ? 256 : Math.round((probe[1] * width) / probe[0] / 2) * 2;
  const size = width * height * 3;
  return {
    width,
    height,
    list: Array.from(
      { length: raw.length / size },
      (_, i) => new Uint8Array(raw.subarray(i * size, (i + 1) * size)),
    ),
  };
}

/** Live face-mesh children of this test process. */
const MESH_CHILD = /vision_worker\.py face-mesh/;

const meanDistance = (a: FaceMesh, b: FaceMesh, from: number, to: number) => {
  let sum = 0;
  for (let i = from; i < to; i++) sum += Math.hypot(a.mesh[i][0] - b.mesh[i][0], a.mesh[i][1] - b.mesh[i][1]);
  return sum / (to - from);
};
const deg = (rad: number) => (rad * 180) / Math.PI;

describe('native vision (MediaPipe 0.10.21)', () => {
  it('should be installed by the setup (.venv, weights verified)', () => {
    expect(nativeVision()).not.toBeNull();
  });

  it.each(HEADS)('should mesh %s like Human: points, irises (same order) and head angles', async (clip) => {
    const { width, height, list } = frames(clip, WIDTH, 20);
    using human = await createFaceTracker({ iris: true });
    using native = createNativeFaceTracker()!;
    expect(native.engine).toBe('mediapipe-native');
    const rows: { mesh: number; iris: number; yaw: number; pitch: number }[] = [];
    for (const rgb of list) {
      const a = await human.detect(new Uint8Array(rgb), width, height);
      const b = await native.detect(rgb, width, height);
      expect(b).not.toBeNull();
      if (!a || !b) continue;
      const face = Math.max(b.box[2], b.box[3]);
      rows.push({
        mesh: meanDistance(a, b, 0, 468) / face,
        iris: meanDistance(a, b, 468, 478) / face,
        yaw: Math.abs(deg(a.rotation!.yaw - b.rotation!.yaw)),
        pitch: Math.abs(deg(a.rotation!.pitch - b.rotation!.pitch)),
      });
    }
    const mean = (k: keyof (typeof rows)[0]) => rows.reduce((s, r) => s + r[k], 0) / rows.length;
    console.log(
      clip,
      Object.fromEntries((['mesh', 'iris', 'yaw', 'pitch'] as const).map((k) => [k, +mean(k).toFixed(3)])),
    );
    expect(rows.length).toBeGreaterThanOrEqual(15);
    expect(mean('mesh')).toBeLessThan(0.03); // 1.5–1.9 % of the face measured
    expect(mean('iris')).toBeLessThan(0.04); // 2.1–2.9 %; swapped eyes would be ~35 %
    expect(mean('yaw')).toBeLessThan(2); // 0.5–0.7° measured
    expect(mean('pitch')).toBeLessThan(2.5); // 0.9–1.5°
  });

  it('should answer overlapping frames in order and find no face in a blank frame', async () => {
    const { width, height, list } = frames('retalking_face2.mp4', WIDTH, 3);
    using native = createNativeFaceTracker()!;
    const blank = new Uint8Array(64 * 48 * 3).fill(90);
    const answers = await Promise.all([
      native.detect(list[0], width, height),
      native.detect(blank, 64, 48),
      native.detect(list[2], width, height),
    ]);
    expect(answers.map((a) => a !== null)).toEqual([true, false, true]);
  });

  it('should be killed when the job is deleted, failing the frame in flight', async () => {
    const { width, height, list } = frames('retalking_face2.mp4', WIDTH, 2);
    const scope = openScope({ jobId: 'vid_facemeshnative0000000' });
    const native = runInScope(scope, () => createNativeFaceTracker())!;
    expect(await native.detect(list[0], width, height)).not.toBeNull();
    expect(liveChildPids(MESH_CHILD)).toHaveLength(1);
    const waiting = native.detect(list[1], width, height);
    abortJob('vid_facemeshnative0000000');
    await expect(waiting).rejects.toThrow();
    expect(await childrenLeftAfter(MESH_CHILD)).toEqual([]);
    native.dispose();
  });

  it('should segment like the TF.js selfie model (same model, native runtime)', async () => {
    const { list } = frames('retalking_face2.mp4', 256, 10, 'scale=256:256');
    using native = createProcessSegmenter();
    expect(native.name).toBe('mediapipe-selfie');
    using tfjs = createProcessSegmenter({ native: configFrom({ NATIVE_VISION: '0' }).core.nativeVision });
    expect(tfjs.name).toBe('tfjs-selfie');
    let inter = 0,
      union = 0,
      diff = 0,
      differing = 0;
    for (const rgb of list) {
      const [a, b] = await Promise.all([native.segment(rgb), tfjs.segment(rgb)]);
      for (let i = 0; i < a.length; i++) {
        const [pa, pb] = [a[i] >= 0.5, b[i] >= 0.5];
        inter += +(pa && pb);
        union += +(pa || pb);
        diff += Math.abs(a[i] - b[i]);
        differing += +(a[i] !== b[i]);
      }
    }
    const iou = inter / union;
    console.log(
      'selfie native vs tfjs: IoU',
      iou.toFixed(5),
      'mean |diff|',
      (diff / (list.length * 256 * 256)).toFixed(6),
      'pixels differing',
      differing,
    );
    expect(iou).toBeGreaterThan(0.95);
  });
});
