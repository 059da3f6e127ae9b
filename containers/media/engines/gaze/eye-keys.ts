/**
 * @module containers/media/engines/gaze/eye-keys
 * The eye-contact editor's landmarks measured once, by another pass over the same source: when
 * new speech drives the mouth, its analysis pass already meshes every Nth source frame, so it
 * meshes with the iris model too and keeps here the few points the gaze warp needs (eyes, irises,
 * inner lips) and the smoothed head angles. The gaze editor then reads them by the source frame
 * the mouth editor matched, instead of meshing every Nth output frame a second time.
 * Memory: ~0.4 KB per mesh frame, whatever the source's length.
 */
import type { MeshPoint } from '../face-tracking/face-track.js';
import { EYE_CONTOURS, IRIS_POINTS } from './geometry.js';
import { between, type Keyframe } from './keyframes.js';

/** Head angles are smoothed across keyframes (Human's yaw/pitch jitter by a degree or two). */
export const HEAD_SMOOTHING = 0.5;

type Rotation = { yaw: number; pitch: number };

/** Exponential smoothing of head angles from keyframe to keyframe, in frame order. */
export function smoothRotation(previous: Rotation | null, next: Rotation): Rotation {
  return previous
    ? {
        yaw: previous.yaw + HEAD_SMOOTHING * (next.yaw - previous.yaw),
        pitch: previous.pitch + HEAD_SMOOTHING * (next.pitch - previous.pitch),
      }
    : { yaw: next.yaw, pitch: next.pitch };
}

/** Mesh points `eyeGeometry` reads: both lid contours, both irises, the inner lips (13, 14). */
export const GAZE_POINT_IDS: readonly number[] = [
  ...new Set<number>([
    ...EYE_CONTOURS.flatMap((e) => [...e.upper, ...e.lower]),
    ...IRIS_POINTS.flat(),
    13,
    14,
  ]),
];
/** Points of a full mesh with iris (what `eyeGeometry` requires). */
const MESH_WITH_IRIS = 478;

/** The gaze points of a 478-point mesh, scaled by `scale`, as one flat x, y record. */
export function gazeRecord(mesh: MeshPoint[], scale = 1): Float32Array {
  const r = new Float32Array(GAZE_POINT_IDS.length * 2);
  GAZE_POINT_IDS.forEach((id, i) => {
    r[2 * i] = mesh[id][0] * scale;
    r[2 * i + 1] = mesh[id][1] * scale;
  });
  return r;
}

/** A 478-long sparse mesh holding only the gaze points of `record` (enough for `eyeGeometry`). */
export function meshFromGazeRecord(record: Float32Array): MeshPoint[] {
  const mesh: MeshPoint[] = new Array(MESH_WITH_IRIS);
  GAZE_POINT_IDS.forEach((id, i) => (mesh[id] = [record[2 * i], record[2 * i + 1]]));
  return mesh;
}

interface EyeKey {
  record: Float32Array | null;
  rotation: Rotation | null;
}

/**
 * Gaze keyframes of a source, added in frame order (every Nth frame, with or without a face),
 * read back in any order (a looping render shows the source again from its start).
 */
export class EyeKeys {
  readonly #keys: EyeKey[] = [];
  #smoothed: Rotation | null = null;

  constructor(readonly everyNth: number) {}

  /** The mesh of source frame `index` (a multiple of N, in order), or null when no face was found. */
  add(index: number, face: { mesh: MeshPoint[]; rotation: Rotation | null } | null, scale = 1): void {
    const hasIris = !!face && face.mesh.length >= MESH_WITH_IRIS;
    if (hasIris && face.rotation) this.#smoothed = smoothRotation(this.#smoothed, face.rotation);
    this.#keys[index / this.everyNth] = {
      record: hasIris ? gazeRecord(face.mesh, scale) : null,
      rotation: hasIris ? this.#smoothed : null,
    };
  }

  /** Landmarks at source frame `index`, by the same rules as the editor's own keyframe track. */
  at(index: number): Keyframe | null {
    if (index < 0) return null;
    const N = this.everyNth;
    const p = Math.floor(index / N);
    const keyframe = (k: number): Keyframe | undefined => {
      const key = this.#keys[k];
      if (!key) return undefined;
      return { index: k * N, mesh: key.record && meshFromGazeRecord(key.record), rotation: key.rotation };
    };
    return between(keyframe(p), keyframe(p + 1), index);
  }
}
