/**
 * Human's results found on a crop, moved back into frame pixels.
 */
import { describe, expect, it } from 'vitest';
import { facesFromCrop } from '../../../../../../../containers/media/engines/vision/human/mapping.js';

describe('facesFromCrop', () => {
  it('should move box and mesh from crop to frame pixels and keep z and rotation', () => {
    const rotation = { angle: { roll: 0.1, yaw: -0.2, pitch: 0.05 } };
    const found = [
      {
        score: 0.8,
        box: [5, 6, 50, 60] as [number, number, number, number],
        mesh: [
          [1, 2, -3],
          [4, 5],
        ] as Array<[number, number, number?]>,
        rotation,
      },
    ];
    const [moved] = facesFromCrop(found, { x: 200, y: 40, size: 144 });
    expect(moved.box).toEqual([205, 46, 50, 60]);
    expect(moved.mesh).toEqual([
      [201, 42, -3],
      [204, 45],
    ]);
    expect(moved).toMatchObject({ score: 0.8, rotation });
  });
});
