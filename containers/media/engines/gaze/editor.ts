/**
 * @module containers/media/engines/gaze/editor
 * The embedded eye-contact editor: face mesh + iris every Nth frame (interpolated between),
 * then per frame and per eye a landmark-guided warp that slides the iris toward where it sits
 * when looking into the camera (head pose included). No weights beyond Human's face models.
 */
import { createFaceTracker, type FaceTracker, type MeshPoint } from '../lipsync/face-track.js';
import type { FrameEditor } from '../frame-pipeline/editors.js';
import { rgbaToRgb, type RawFrame } from '../frame-pipeline/frames.js';
import { eyeGeometry, irisShifts, type GazeTargetOptions } from './geometry.js';
import { locateIris } from './iris.js';
import { KeyframeTrack } from './keyframes.js';
import { warpEye } from './warp.js';

/** Detection input longest side, px: face mesh crops the face itself; bigger only costs time. */
export const DETECT_MAX_SIDE_PX = 720;
/** Head angles are smoothed across keyframes (Human's yaw/pitch jitter by a degree or two). */
export const HEAD_SMOOTHING = 0.5;

export interface WarpGazeEditorOptions extends GazeTargetOptions {
  /** Face mesh on every Nth frame, interpolated between. Default 2 (25 fps → 12.5 meshes/s). */
  everyNth?: number;
  /** Longest side of the detection input, px. Default DETECT_MAX_SIDE_PX. */
  detectMaxSide?: number;
  /** Face tracker (tests inject one). Default: Human face mesh + iris. */
  tracker?: FaceTracker;
}

/**
 * @example
 * const editor = await createWarpGazeEditor();
 * // render loop: observe(frame) on decode, edit(frame) `editor.lookahead` frames later.
 */
export async function createWarpGazeEditor(options: WarpGazeEditorOptions = {}): Promise<FrameEditor> {
  const { everyNth = 2, detectMaxSide = DETECT_MAX_SIDE_PX, tracker: given, ...target } = options;
  const N = Math.max(1, Math.floor(everyNth));
  const tracker = given ?? (await createFaceTracker({ iris: true }));
  const track = new KeyframeTrack();
  let smoothed: { yaw: number; pitch: number } | null = null;
  const stats = {
    frames: 0,
    keyframes: 0,
    faces: 0,
    eyes_warped: 0,
    detect_ms: 0,
    rgb_ms: 0,
    iris_ms: 0,
    warp_ms: 0,
    shift_px_sum: 0,
  };
  let disposed = false;

  const observe = async (frame: RawFrame) => {
    if (frame.index % N !== 0) return;
    const t0 = performance.now();
    const scale = Math.min(1, detectMaxSide / Math.max(frame.width, frame.height));
    const { rgb, w, h } = rgbaToRgb(frame.data, frame.width, frame.height, scale);
    const t1 = performance.now();
    const face = await tracker.detect(rgb, w, h);
    stats.rgb_ms += t1 - t0;
    stats.detect_ms += performance.now() - t0;
    stats.keyframes++;
    let mesh: MeshPoint[] | null = null;
    if (face && face.mesh.length >= 478) {
      mesh = face.mesh.map((p) => [p[0] / scale, p[1] / scale] as MeshPoint);
      stats.faces++;
      if (face.rotation) {
        const r = face.rotation;
        smoothed = smoothed
          ? {
              yaw: smoothed.yaw + HEAD_SMOOTHING * (r.yaw - smoothed.yaw),
              pitch: smoothed.pitch + HEAD_SMOOTHING * (r.pitch - smoothed.pitch),
            }
          : { yaw: r.yaw, pitch: r.pitch };
      }
    }
    track.add({ index: frame.index, mesh, rotation: mesh ? smoothed : null });
  };

  const dispose = () => {
    if (disposed) return;
    disposed = true;
    if (!given) tracker.dispose();
  };
  return {
    name: 'eye_contact',
    lookahead: N,
    observe,
    async edit(frame) {
      stats.frames++;
      const k = track.at(frame.index);
      if (!k?.mesh) return;
      const t0 = performance.now();
      const eyes = eyeGeometry(k.mesh);
      if (eyes) {
        // Aim with the iris as seen in THIS frame (sub-pixel, follows saccades between keyframes).
        for (const eye of eyes)
          eye.iris = locateIris(frame.data, frame.width, frame.height, frame.channels, eye);
        stats.iris_ms += performance.now() - t0;
        const shifts = irisShifts(eyes, k.rotation, target);
        for (const [i, eye] of eyes.entries()) {
          const shift = shifts[i];
          if (warpEye(frame.data, frame.width, frame.height, frame.channels, eye, shift) > 0) {
            stats.eyes_warped++;
            stats.shift_px_sum += Math.hypot(shift.x, shift.y);
          }
        }
      }
      stats.warp_ms += performance.now() - t0;
    },
    report() {
      return {
        engine: 'landmark-warp',
        every_nth: N,
        frames: stats.frames,
        keyframes: stats.keyframes,
        faces: stats.faces,
        eyes_warped: stats.eyes_warped,
        mean_shift_px: stats.eyes_warped
          ? Math.round((stats.shift_px_sum / stats.eyes_warped) * 100) / 100
          : 0,
        detect_ms: Math.round(stats.detect_ms),
        detect_input_ms: Math.round(stats.rgb_ms),
        iris_ms: Math.round(stats.iris_ms),
        warp_ms: Math.round(stats.warp_ms),
      };
    },
    dispose,
    [Symbol.dispose]: dispose,
  };
}
