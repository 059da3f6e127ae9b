import { describe, expect, it } from 'vitest';
import { faceAngles } from '../../../../../../containers/media/engines/face-tracking/face-angles.js';
import { meshFromRecord } from '../../../../../../containers/media/engines/face-tracking/face-track-native.js';
import type { MeshPoint } from '../../../../../../containers/media/engines/face-tracking/face-track.js';

/** A mesh whose forehead, chin and cheek points (10, 152, 234, 454) sit on a head turned by `yaw`. */
function turnedHead(yaw: number, pitch = 0): MeshPoint[] {
  const mesh: MeshPoint[] = Array.from({ length: 468 }, () => [0, 0, 0]);
  const rotate = ([x, y, z]: [number, number, number]): MeshPoint => {
    // yaw about the vertical axis, then pitch about the horizontal one (image y points down).
    const [x1, z1] = [x * Math.cos(yaw) + z * Math.sin(yaw), -x * Math.sin(yaw) + z * Math.cos(yaw)];
    const [y2, z2] = [y * Math.cos(pitch) - z1 * Math.sin(pitch), y * Math.sin(pitch) + z1 * Math.cos(pitch)];
    return [300 + x1, 200 + y2, z2];
  };
  mesh[10] = rotate([0, -100, 0]);
  mesh[152] = rotate([0, 100, 0]);
  mesh[234] = rotate([-80, 0, 0]);
  mesh[454] = rotate([80, 0, 0]);
  return mesh;
}

describe('faceAngles', () => {
  it('should read a frontal head as zero and a turned head as its yaw, sign by Human’s convention', () => {
    const front = faceAngles(turnedHead(0));
    expect(Math.abs(front.yaw) + Math.abs(front.pitch) + Math.abs(front.roll)).toBeLessThan(1e-9);
    for (const yaw of [-0.4, -0.1, 0.2, 0.5])
      expect(Math.abs(faceAngles(turnedHead(yaw)).yaw)).toBeCloseTo(Math.abs(yaw), 6);
    // The sign flips with the turn, and a flatter depth scale reads a smaller angle.
    expect(Math.sign(faceAngles(turnedHead(0.3)).yaw)).toBe(-Math.sign(faceAngles(turnedHead(-0.3)).yaw));
    expect(Math.abs(faceAngles(turnedHead(0.3), 0.5).yaw)).toBeLessThan(0.3);
  });

  it('should read a nod as pitch, not yaw', () => {
    const a = faceAngles(turnedHead(0, 0.25));
    expect(Math.abs(a.pitch)).toBeCloseTo(0.25, 6);
    expect(Math.abs(a.yaw)).toBeLessThan(1e-9);
  });
});

describe('meshFromRecord', () => {
  const record = (flag: number, points: number) => {
    const f = new Float32Array(1 + 478 * 3);
    f[0] = flag;
    for (let i = 0; i < points; i++) f.set([i, 1000 + i, -i], 1 + i * 3);
    return Buffer.from(f.buffer);
  };

  it('should give 478 points with the irises in Human’s order, a box around the mesh and head angles', () => {
    const face = meshFromRecord(record(1, 478))!;
    expect(face.mesh).toHaveLength(478);
    expect(face.mesh[100]).toEqual([100, 1100, -100]);
    expect(face.mesh[468][0]).toBe(473); // MediaPipe's second iris block comes first in Human's
    expect(face.mesh[473][0]).toBe(468);
    expect(face.box).toEqual([0, 1000, 467, 467]);
    expect(face.rotation).not.toBeNull();
  });

  it('should give 468 points without irises for flag 2 and no face for flag 0', () => {
    expect(meshFromRecord(record(2, 468))!.mesh).toHaveLength(468);
    expect(meshFromRecord(record(0, 0))).toBeNull();
  });

  it('should read a record that is not 4-byte aligned in its buffer', () => {
    const r = record(1, 478);
    const shifted = Buffer.concat([Buffer.alloc(1), r]).subarray(1);
    expect(meshFromRecord(shifted)!.mesh[5]).toEqual([5, 1005, -5]);
  });
});
