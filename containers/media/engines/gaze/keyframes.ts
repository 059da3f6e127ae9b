/**
 * @module containers/media/engines/gaze/keyframes
 * Landmarks on every Nth frame, linearly interpolated for the frames between (the face mesh is
 * the cost: ~35–45 ms per 720p keyframe on one core; the iris search and warp ~12 ms per frame).
 * Interpolation needs the next keyframe, so the editor asks the render loop for a lookahead of
 * N frames.
 */
import type { MeshPoint } from '../face-tracking/face-track.js';

export interface Keyframe {
  index: number;
  /** null: no face (or no iris) on this frame. */
  mesh: MeshPoint[] | null;
  rotation: { yaw: number; pitch: number } | null;
}

/** Keyframes by index, pruned as the render moves on. */
export class KeyframeTrack {
  private readonly frames: Keyframe[] = [];

  add(k: Keyframe): void {
    this.frames.push(k);
  }

  /**
   * Landmarks at frame `index`: interpolated between the keyframes around it when both saw a
   * face, the nearer one's when only one did, null when neither did. Older keyframes are dropped.
   */
  at(index: number): Keyframe | null {
    let prev: Keyframe | undefined, next: Keyframe | undefined;
    for (const k of this.frames) {
      if (k.index <= index) prev = k;
      else if (!next) next = k;
    }
    // Keep `prev` (still needed by the frames up to `next`), drop everything before it.
    while (this.frames.length > 1 && this.frames[1].index <= index) this.frames.shift();
    return between(prev, next, index);
  }
}

/**
 * Landmarks at frame `index` from the keyframes around it (`prev.index` ≤ index < `next.index`):
 * interpolated when both saw a face, the nearer one's when only one did, null when neither did.
 */
export function between(
  prev: Keyframe | undefined,
  next: Keyframe | undefined,
  index: number,
): Keyframe | null {
  if (prev && prev.index === index) return prev;
  if (!prev?.mesh && !next?.mesh) return null;
  if (!prev?.mesh || !next?.mesh) {
    // Only one side saw a face: trust it only if it is the nearer one (a face appearing/leaving).
    const only = (prev?.mesh ? prev : next)!;
    const other = prev?.mesh ? next : prev;
    return !other || Math.abs(only.index - index) <= Math.abs(other.index - index)
      ? { ...only, index }
      : null;
  }
  const t = (index - prev.index) / (next.index - prev.index);
  const n = Math.min(prev.mesh.length, next.mesh.length);
  const mesh: MeshPoint[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const a = prev.mesh[i],
      b = next.mesh[i];
    // A sparse mesh (eye-keys.ts) has holes where no point was kept.
    if (a && b) mesh[i] = [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
  }
  const rotation =
    prev.rotation && next.rotation
      ? {
          yaw: prev.rotation.yaw + (next.rotation.yaw - prev.rotation.yaw) * t,
          pitch: prev.rotation.pitch + (next.rotation.pitch - prev.rotation.pitch) * t,
        }
      : (prev.rotation ?? next.rotation);
  return { index, mesh, rotation };
}
