/**
 * @module containers/media/engines/gaze/editor
 * The embedded eye-contact editor: face mesh + iris every Nth frame (interpolated between),
 * then per frame and per eye a landmark-guided warp that slides the iris toward where it sits
 * when looking into the camera (head pose included). No weights beyond Human's face models.
 */
import type { FaceMesh, FaceTracker, MeshPoint } from '../face-tracking/face-track.js';
import { createProcessingFaceTracker } from '../face-tracking/face-track-worker.js';
import { DEFAULT_MESH_EVERY_NTH, type FrameEditor, type YuvFrame } from '../frame-pipeline/editors.js';
import { rgbSizeAt, yuvToRgb } from '../frame-pipeline/yuv.js';
import { RecordPool } from '../frame-pipeline/record-pool.js';
import { eyeGeometry, irisShifts, type GazeTargetOptions } from './geometry.js';
import { irisSearchBox, locateIris } from './iris.js';
import { smoothRotation } from './eye-keys.js';
import { KeyframeTrack, type Keyframe } from './keyframes.js';
import { lidDistances, warpBoxes, warpEye } from './warp.js';

/** Detection input longest side, px: face mesh crops the face itself; bigger only costs time. */
export const DETECT_MAX_SIDE_PX = 720;
/**
 * Keyframes whose mesh may still be running when the frame before them is edited: the mesh
 * thread works this far ahead of the edits (the render holds (this + 1) × N frames back).
 */
export const MESHES_AHEAD = 3;

export interface WarpGazeEditorOptions extends GazeTargetOptions {
  /** Face mesh on every Nth frame, interpolated between. Default `DEFAULT_MESH_EVERY_NTH`. */
  everyNth?: number;
  /** Longest side of the detection input, px. Default DETECT_MAX_SIDE_PX. */
  detectMaxSide?: number;
  /** Face tracker (tests inject one). Default: `createProcessingFaceTracker` (native MediaPipe, else Human). */
  tracker?: FaceTracker;
  /**
   * Landmarks measured by another pass (the mouth analysis, `eye-keys.ts`), read per output frame
   * after the editors before this one: then this editor runs no face mesh of its own.
   */
  landmarks?: (frame: YuvFrame) => Keyframe | null;
}

/**
 * @example
 * const editor = await createWarpGazeEditor();
 * // render loop: observe(frame) on decode, edit(frame) `editor.lookahead` frames later.
 */
export async function createWarpGazeEditor(options: WarpGazeEditorOptions = {}): Promise<FrameEditor> {
  const {
    everyNth = DEFAULT_MESH_EVERY_NTH,
    detectMaxSide = DETECT_MAX_SIDE_PX,
    tracker: given,
    landmarks,
    ...target
  } = options;
  const N = Math.max(1, Math.floor(everyNth));
  const tracker = landmarks ? null : (given ?? (await createProcessingFaceTracker({ iris: true })));
  const track = new KeyframeTrack();
  let smoothed: { yaw: number; pitch: number } | null = null;
  const stats = {
    frames: 0,
    frames_with_face: 0,
    keyframes: 0,
    faces: 0,
    eyes_warped: 0,
    detect_ms: 0,
    detect_wait_ms: 0,
    rgb_ms: 0,
    iris_ms: 0,
    warp_ms: 0,
    shift_px_sum: 0,
  };
  // Each eye's lid distances, reused from frame to frame (`lidDistances`).
  const fieldBuffers: Float64Array[] = [];
  let disposed = false;
  // Meshes asked for and not yet in the track, in frame order.
  const ahead = tracker?.pipelined ? MESHES_AHEAD : 0;
  const inFlight: {
    index: number;
    scale: number;
    sent: number;
    rgb: Buffer;
    face: Promise<FaceMesh | null>;
  }[] = [];
  // The mesh's input pictures, reused once answered (a tracker on a thread takes them for good).
  let rgbPool: RecordPool | null = null;

  const addKeyframe = (index: number, scale: number, face: FaceMesh | null) => {
    stats.keyframes++;
    let mesh: MeshPoint[] | null = null;
    if (face && face.mesh.length >= 478) {
      mesh = face.mesh.map((p) => [p[0] / scale, p[1] / scale] as MeshPoint);
      stats.faces++;
      if (face.rotation) smoothed = smoothRotation(smoothed, face.rotation);
    }
    track.add({ index, mesh, rotation: mesh ? smoothed : null });
  };

  /** Moves answered meshes into the track, in order, waiting for those up to `upTo`. */
  const settle = async (upTo: number) => {
    while (inFlight.length && inFlight[0].index <= upTo) {
      const k = inFlight.shift()!;
      const t = performance.now();
      const face = await k.face;
      const now = performance.now();
      stats.detect_wait_ms += now - t;
      stats.detect_ms += now - k.sent;
      addKeyframe(k.index, k.scale, face);
      rgbPool?.give(k.rgb);
    }
  };

  const observe = async (frame: YuvFrame) => {
    if (!tracker || frame.index % N !== 0) return;
    const t0 = performance.now();
    const scale = Math.min(1, detectMaxSide / Math.max(frame.width, frame.height));
    const { w, h } = rgbSizeAt(frame.width, frame.height, scale);
    if (rgbPool?.size !== w * h * 3) rgbPool = new RecordPool(w * h * 3, ahead + 2);
    const rgb = rgbPool.take();
    yuvToRgb(frame.yuv, frame.width, frame.height, scale, rgb);
    const sent = performance.now();
    stats.rgb_ms += sent - t0;
    const face = tracker.detect(rgb, w, h);
    face.catch(() => {}); // a disposed tracker rejects what is still in flight: nobody waits for it
    inFlight.push({ index: frame.index, scale, sent, rgb, face });
    // A tracker on its own thread may run `ahead` keyframes ahead of the edits.
    await settle(frame.index - ahead * N);
  };

  const dispose = () => {
    if (disposed) return;
    disposed = true;
    if (!given) tracker?.dispose();
  };
  return {
    name: 'eye_contact',
    lookahead: tracker ? (ahead + 1) * N : 0,
    observe: tracker ? observe : undefined,
    async edit(frame) {
      stats.frames++;
      let k: Keyframe | null;
      if (landmarks) k = landmarks(frame);
      else {
        await settle(frame.index + N);
        k = track.at(frame.index);
      }
      if (!k?.mesh) return;
      stats.frames_with_face++;
      const t0 = performance.now();
      const eyes = eyeGeometry(k.mesh);
      if (eyes) {
        const { width: W, height: H } = frame;
        // Aim with the iris as seen in THIS frame (sub-pixel, follows saccades between keyframes).
        const fields = eyes.map((eye, i) => lidDistances(eye, W, H, fieldBuffers[i]));
        // A field that outgrew its buffer got a new one: kept for the next frames.
        for (const [i, f] of fields.entries())
          if (f.sd.buffer !== fieldBuffers[i]?.buffer) fieldBuffers[i] = f.sd;
        for (const [i, eye] of eyes.entries())
          eye.iris = locateIris(frame.rgba(irisSearchBox(eye)), W, H, 4, eye, fields[i]);
        stats.iris_ms += performance.now() - t0;
        const shifts = irisShifts(eyes, k.rotation, target);
        for (const [i, eye] of eyes.entries()) {
          const shift = shifts[i];
          if (warpEye(frame.rgba(warpBoxes(eye, shift).read), W, H, 4, eye, shift, fields[i]) > 0) {
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
        landmarks: landmarks ? 'mouth_analysis' : 'own_mesh',
        frames: stats.frames,
        frames_with_face: stats.frames_with_face,
        // The own mesh's counters; with borrowed landmarks the mouth analysis reports its meshes.
        ...(tracker && {
          mesh_engine: tracker.engine ?? 'human-tfjs',
          keyframes: stats.keyframes,
          faces: stats.faces,
          detect_ms: Math.round(stats.detect_ms),
          detect_wait_ms: Math.round(stats.detect_wait_ms),
          detect_input_ms: Math.round(stats.rgb_ms),
        }),
        eyes_warped: stats.eyes_warped,
        mean_shift_px: stats.eyes_warped
          ? Math.round((stats.shift_px_sum / stats.eyes_warped) * 100) / 100
          : 0,
        iris_ms: Math.round(stats.iris_ms),
        warp_ms: Math.round(stats.warp_ms),
      };
    },
    dispose,
    [Symbol.dispose]: dispose,
  };
}
