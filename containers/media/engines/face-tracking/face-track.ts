/**
 * @module containers/media/engines/face-tracking/face-track
 * Face-mesh landmarks (478 points with iris) per frame for the processing engines, using the
 * vision engineer's Human loader (models from local files, wasm backend) with every model but
 * the face detector, mesh and iris switched off per call, so a frame costs one mesh pass.
 */
import { loadHuman, type HumanInstance } from '../vision/human/load.js';

export type MeshPoint = [number, number, number?];

export interface FaceMesh {
  score: number;
  box: [number, number, number, number];
  /** 468 mesh points (+10 iris points when found), in pixels of the frame given. */
  mesh: MeshPoint[];
  /** Head rotation in radians (Human: yaw > 0 = head turned to the person's right, pitch > 0 = down), or null. */
  rotation: { roll: number; yaw: number; pitch: number } | null;
}

/**
 * Only what processing needs: face + mesh (+ iris). Consecutive video frames barely change,
 * so the face box is reused for a few frames (Human's cache) instead of re-detecting.
 */
const faceOnly = (iris: boolean) => ({
  cacheSensitivity: 0.3,
  body: { enabled: false },
  hand: { enabled: false },
  face: {
    enabled: true,
    detector: { skipFrames: 15, skipTime: 1500 },
    emotion: { enabled: false },
    iris: { enabled: iris },
    mesh: { enabled: true },
  },
});

export type FaceMeshEngine = 'human-tfjs' | 'mediapipe-native';

export interface FaceTracker extends Disposable {
  /**
   * `detect` may be called again before its last answer arrives (answers come in order): the
   * mesh runs on another thread. Otherwise callers await each answer before the next call.
   */
  readonly pipelined?: boolean;
  /** Which face mesh answers, for reports: `human-tfjs` (default) or `mediapipe-native`. */
  readonly engine?: FaceMeshEngine;
  /** Landmarks of the most prominent face in an RGB frame, or null. */
  detect(rgb: Uint8Array, width: number, height: number): Promise<FaceMesh | null>;
  dispose(): void;
}

export interface FaceTrackerOptions {
  /** Run the iris model (eye contact needs it, mouth tracking does not). Default true. */
  iris?: boolean;
}

/** @example using t = await createFaceTracker(); const f = await t.detect(rgb, w, h); */
export async function createFaceTracker({ iris = true }: FaceTrackerOptions = {}): Promise<FaceTracker> {
  const human: HumanInstance = await loadHuman();
  let disposed = false;
  const dispose = () => void (disposed = true); // models are shared per process, not owned here
  return {
    async detect(rgb, width, height) {
      if (disposed) throw new Error('face tracker is disposed');
      return detectFace(human, rgb, width, height, iris);
    },
    dispose,
    [Symbol.dispose]: dispose,
  };
}

/** One face-only Human pass over an RGB frame (this thread's or a face-mesh worker's instance). */
export async function detectFace(
  human: HumanInstance,
  rgb: Uint8Array,
  width: number,
  height: number,
  iris: boolean,
): Promise<FaceMesh | null> {
  const input = human.tf.tensor3d(rgb, [height, width, 3], 'int32');
  try {
    const result = await human.detect(input, faceOnly(iris));
    if (result.error) throw new Error(`human: ${result.error}`);
    const face = result.face[0];
    if (!face || !face.mesh || face.mesh.length < 468) return null;
    return { score: face.score, box: face.box, mesh: face.mesh, rotation: face.rotation?.angle ?? null };
  } finally {
    input.dispose();
  }
}

const dist = (a: MeshPoint, b: MeshPoint) => Math.hypot(a[0] - b[0], a[1] - b[1]);

/** Mesh indices: inner lips (13 upper, 14 lower), mouth corners (78, 308). */
export const MOUTH = { upper: 13, lower: 14, left: 78, right: 308 } as const;

/** Mouth opening relative to mouth width (scale free): ~0 closed, ~0.5+ wide open. */
export function mouthOpenness(mesh: MeshPoint[]): number {
  const w = dist(mesh[MOUTH.left], mesh[MOUTH.right]);
  return w > 0 ? dist(mesh[MOUTH.upper], mesh[MOUTH.lower]) / w : 0;
}

/** Mesh indices: outer lip contour (0 top of the upper lip, 17 bottom of the lower), outer corners (61, 291). */
export const OUTER_LIPS = { upper: 0, lower: 17, left: 61, right: 291 } as const;

/**
 * Outer lip height relative to outer mouth width (scale free, ~0.3 closed). Follows jaw and lip
 * opening like `mouthOpenness`, but the outer contour is tracked more steadily by the mesh: the
 * inner lip points collapse onto each other whenever the lips touch.
 */
export function outerLipOpening(mesh: MeshPoint[]): number {
  const w = dist(mesh[OUTER_LIPS.left], mesh[OUTER_LIPS.right]);
  return w > 0 ? dist(mesh[OUTER_LIPS.upper], mesh[OUTER_LIPS.lower]) / w : 0;
}
