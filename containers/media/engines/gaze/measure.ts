/**
 * @module containers/media/engines/gaze/measure
 * Verification of eye-contact correction with the project's own measurement: face mesh + iris
 * on sampled frames of a video, turned into gaze angles by `gazeAngles` from
 * `src/analytics/visual` (the same numbers an analysis reports). Used by tests and the bench.
 */
import type { FrameObservation } from '../../../../src/contract/media.js';
import { gazeAngles } from '../../../../src/analytics/visual/gaze.js';
import { probeFile, spawnFfmpeg } from '../../core/ffmpeg.js';
import { createFaceTracker } from '../face-tracking/face-track.js';
import { readFrames } from '../frame-pipeline/frames.js';
import { eyeGeometry, IRIS_POINTS } from './geometry.js';
import { locateIris } from './iris.js';

export interface GazeMeasureOptions {
  /** Frames sampled per second. Default 5 (gaze changes slowly; bounded cost). */
  sampleFps?: number;
  /** Longest side of analysed frames in px. Default 640 (the measured-speed size). */
  maxSide?: number;
  /** Seconds analysed from the start. Default: all. */
  maxSec?: number;
  /** Add head yaw/pitch (what "looking at the camera" means). Default true. */
  useHeadRotation?: boolean;
  signal?: AbortSignal;
}

export interface GazeMeasurement {
  frames: number;
  faces: number;
  /** Mean |combined gaze angle| in degrees over face frames (√(x²+y²)). */
  meanAbsDeg: number;
  meanAbsXDeg: number;
  meanAbsYDeg: number;
  /** Mean |eye-in-head angle| (iris only), degrees. */
  meanAbsEyeDeg: number;
  /**
   * The same combined angle with the iris centres located directly in the pixels
   * (`locateIris`) instead of Human's iris model, which truncates to whole pixels and leans
   * toward the eye centre.
   */
  meanAbsDirectDeg: number;
}

/** @example const { meanAbsDeg } = await measureGaze('out.mp4'); */
export async function measureGaze(
  path: string,
  { sampleFps = 5, maxSide = 640, maxSec, useHeadRotation = true, signal }: GazeMeasureOptions = {},
): Promise<GazeMeasurement> {
  const probe = await probeFile(path, signal);
  const v = probe.video;
  if (!v) throw new Error(`measureGaze: ${path} has no video`);
  const rotated = Math.abs(v.rotation) % 180 === 90;
  const [sw, sh] = rotated ? [v.height, v.width] : [v.width, v.height];
  const scale = Math.min(1, maxSide / Math.max(sw, sh));
  const w = Math.round((sw * scale) / 2) * 2;
  const h = Math.round((sh * scale) / 2) * 2;
  using tracker = await createFaceTracker({ iris: true });
  const args = ['-i', path, '-an'];
  if (maxSec) args.push('-t', String(maxSec));
  using dec = spawnFfmpeg(
    [...args, '-vf', `fps=${sampleFps},scale=${w}:${h},format=rgb24`, '-f', 'rawvideo', 'pipe:1'],
    signal,
  );
  dec.child.stdin.end();
  let frames = 0;
  const xs: number[] = [],
    ys: number[] = [],
    both: number[] = [],
    eyes: number[] = [],
    direct: number[] = [];
  for await (const f of readFrames(dec.child.stdout, { width: w, height: h, channels: 3, fps: sampleFps })) {
    frames++;
    const face = await tracker.detect(f.data, w, h);
    if (!face) continue;
    const obs = {
      score: face.score,
      box: face.box,
      mesh: face.mesh,
      rotation: face.rotation,
      emotion: [],
    } as unknown as FrameObservation['face'];
    const g = gazeAngles(obs, useHeadRotation);
    if (!g.measured) continue;
    xs.push(Math.abs(g.x));
    ys.push(Math.abs(g.y));
    both.push(Math.hypot(g.x, g.y));
    if (g.eyeX !== null && g.eyeY !== null) eyes.push(Math.hypot(g.eyeX, g.eyeY));
    const geo = eyeGeometry(face.mesh);
    if (geo) {
      // gaze.ts matches irises to eyes by distance, so the located centres can go in either slot.
      const mesh = face.mesh.slice();
      geo.forEach((e, i) => {
        const p = locateIris(f.data, w, h, 3, e);
        mesh[IRIS_POINTS[i][0]] = [p.x, p.y];
      });
      const d = gazeAngles({ ...obs!, mesh } as FrameObservation['face'], useHeadRotation);
      direct.push(Math.hypot(d.x, d.y));
    }
  }
  await dec.done;
  const mean = (a: number[]) => (a.length ? a.reduce((s, x) => s + x, 0) / a.length : NaN);
  const r2 = (x: number) => Math.round(x * 100) / 100;
  return {
    frames,
    faces: both.length,
    meanAbsDeg: r2(mean(both)),
    meanAbsXDeg: r2(mean(xs)),
    meanAbsYDeg: r2(mean(ys)),
    meanAbsEyeDeg: r2(mean(eyes)),
    meanAbsDirectDeg: r2(mean(direct)),
  };
}
