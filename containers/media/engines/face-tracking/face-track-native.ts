/**
 * @module containers/media/engines/face-tracking/face-track-native
 * A `FaceTracker` on MediaPipe's native face mesh (TFLite + XNNPACK on one core), run by
 * `python/vision_worker.py face-mesh` (468 points) or `face-mesh-eyes` (478, lids and irises from
 * the attention mesh) as a child process of the job (`startRecordProcess`: the job's nice, DELETE,
 * deadline and an answer timeout reach it). 4.6 / 8.8 CPU ms per frame against ≈ 13–27 ms for
 * Human's mesh on TensorFlow.js wasm (docs/benchmarks.md "Native face mesh and segmenter"). The
 * mesh tracks from frame to frame, so one tracker takes the frames of one video in order.
 */
import { nativeVision } from '../../core/venv.js';
import { startRecordProcess } from '../frame-pipeline/record-process.js';
import { faceAngles } from './face-angles.js';
import type { FaceMesh, FaceTracker, MeshPoint } from './face-track.js';

const POINTS = 478;
/** Per frame: a flag (1: 478 points, 2: the first 468, 0: no face), then x, y, z of each point. */
const RECORD_BYTES = 4 * (1 + POINTS * 3);
/**
 * MediaPipe's z is in pixels of x's scale; Human's meshes carry a flatter z (units of its crop),
 * and the gaze engine's head compensation was tuned on Human's angles. Fitted on the five shared
 * talking heads at 5 fps (docs/benchmarks.md "Native face mesh and segmenter"): mean |Δyaw|
 * 0.3–0.8°, |Δpitch| 1.2–1.4° on three of them (test/container/vision-native.test.ts).
 */
export const HUMAN_DEPTH_SCALE = 0.7;
/**
 * MediaPipe lists the iris of the eye at points 33–133 first (468–472), Human second (473–477);
 * the gaze code follows Human, so the two blocks swap.
 */
const humanIndex = (i: number) => (i < 468 ? i : i < 473 ? i + 5 : i - 5);

/** A mesh from one record, or null when no face was found. */
export function meshFromRecord(record: Buffer): FaceMesh | null {
  const aligned = record.byteOffset % 4 === 0 ? record : Buffer.from(record);
  const floats = new Float32Array(aligned.buffer, aligned.byteOffset, aligned.length / 4);
  if (floats[0] !== 1 && floats[0] !== 2) return null;
  const points = floats[0] === 1 ? POINTS : 468;
  const mesh: MeshPoint[] = new Array(points);
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < points; i++) {
    const [x, y, z] = [floats[1 + i * 3], floats[2 + i * 3], floats[3 + i * 3]];
    mesh[humanIndex(i)] = [x, y, z];
    if (i < 468)
      [minX, minY, maxX, maxY] = [Math.min(minX, x), Math.min(minY, y), Math.max(maxX, x), Math.max(maxY, y)];
  }
  return {
    score: 1, // the legacy solution reports only faces above its tracking confidence (0.5)
    box: [minX, minY, maxX - minX, maxY - minY],
    mesh,
    rotation: faceAngles(mesh, HUMAN_DEPTH_SCALE),
  };
}

/**
 * Starts the native face mesh, or returns null when the environment lacks it (`nativeVision`).
 * @example using t = createNativeFaceTracker(); const f = await t?.detect(rgb, w, h);
 */
export function createNativeFaceTracker(signal?: AbortSignal, iris = true): FaceTracker | null {
  const native = nativeVision();
  if (!native) return null;
  const proc = startRecordProcess(native.python, [native.script, iris ? 'face-mesh-eyes' : 'face-mesh'], {
    recordBytes: RECORD_BYTES,
    parse: meshFromRecord,
    name: 'the face-mesh process',
    signal,
  });
  return {
    pipelined: true,
    engine: 'mediapipe-native',
    detect(rgb, width, height) {
      // A short frame would shift every later record of the stream: refuse it here.
      if (rgb.length !== width * height * 3)
        return Promise.reject(new Error('face mesh: frame size mismatch'));
      const header = Buffer.alloc(8);
      header.writeUInt32LE(width, 0);
      header.writeUInt32LE(height, 4);
      return proc.request(header, rgb);
    },
    dispose: proc.dispose,
    [Symbol.dispose]: proc.dispose,
  };
}
