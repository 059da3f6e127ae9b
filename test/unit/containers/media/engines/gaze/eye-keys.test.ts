import { describe, expect, it } from 'vitest';
import type { MeshPoint } from '../../../../../../containers/media/engines/face-tracking/face-track.js';
import { EyeKeys } from '../../../../../../containers/media/engines/gaze/eye-keys.js';
import { eyeGeometry } from '../../../../../../containers/media/engines/gaze/geometry.js';
import { KeyframeTrack } from '../../../../../../containers/media/engines/gaze/keyframes.js';

/** A 478-point mesh with distinct points, shifted by `dx` (a moving head). */
const mesh = (dx: number, points = 478): MeshPoint[] =>
  Array.from({ length: points }, (_, i) => [100 + dx + (i % 30) * 7, 100 + Math.floor(i / 30) * 5]);

describe('EyeKeys', () => {
  it('should give the gaze editor the same eyes as its own keyframe track, in any order', () => {
    const keys = new EyeKeys(3);
    const track = new KeyframeTrack();
    for (const [index, dx] of [
      [0, 0],
      [3, 12],
      [6, 30],
    ] as const) {
      keys.add(index, { mesh: mesh(dx), rotation: null });
      track.add({ index, mesh: mesh(dx), rotation: null });
    }
    const own = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => eyeGeometry(track.at(i)!.mesh!));
    // A looping render reads the source's frames again from the start.
    for (const i of [7, 1, 0, 5, 2, 6, 3, 4]) {
      const borrowed = eyeGeometry(keys.at(i)!.mesh!);
      expect(borrowed).not.toBeNull();
      for (const [e, eye] of borrowed!.entries()) {
        expect(eye.center.x).toBeCloseTo(own[i]![e].center.x, 3);
        expect(eye.iris.y).toBeCloseTo(own[i]![e].iris.y, 3);
        expect(eye.polygon).toHaveLength(own[i]![e].polygon.length);
      }
    }
  });

  it('should scale, smooth the head angles and trust only the nearer side of a lost face', () => {
    const keys = new EyeKeys(3);
    keys.add(0, { mesh: mesh(0), rotation: { yaw: 0, pitch: 0.2, roll: 0 } as never }, 2);
    keys.add(3, { mesh: mesh(0), rotation: { yaw: 0.4, pitch: 0.2 } });
    keys.add(6, null);
    keys.add(9, { mesh: mesh(0, 468), rotation: { yaw: 1, pitch: 0 } }); // no iris: not usable
    expect(keys.at(0)!.mesh![33]![0]).toBeCloseTo((100 + 3 * 7) * 2);
    expect(keys.at(3)!.rotation).toEqual({ yaw: 0.2, pitch: 0.2 });
    expect(keys.at(4)!.mesh).not.toBeNull(); // nearer to 3 (face) than to 6 (none)
    expect(keys.at(5)).toBeNull();
    expect(keys.at(7)).toBeNull();
    expect(keys.at(-1)).toBeNull();
    expect(keys.at(30)).toBeNull();
  });
});
