import { describe, expect, it } from 'vitest';
import {
  eyeAspectRatio,
  gazeAngles,
  gazeDirection,
  gazeDirectionX,
  gazeDirectionY,
  mouthMetrics,
  normaliseEyeOpenness,
  smileRatio,
  topEmotion,
} from '../../../../../src/analytics/visual/index.js';
import { face } from './fixtures.js';

describe('eye openness', () => {
  it('should measure the eye aspect ratio from the lids', () => {
    expect(eyeAspectRatio(face({ lid: 4 }).mesh)).toBeCloseTo(0.4); // (8 + 8) / (2 × 20)
    expect(eyeAspectRatio(face({ lid: 0 }).mesh)).toBe(0);
    expect(eyeAspectRatio(null)).toBeNull();
    expect(eyeAspectRatio(face().mesh.slice(0, 300))).toBeNull();
  });

  it('should give ≈ 0 for closed eyes and ≈ 1 for open eyes after per-person normalisation', () => {
    const ears = [4, 4, 0, 4, 4, 4, 4, 4, 4, 4].map((lid) => eyeAspectRatio(face({ lid }).mesh));
    const open = normaliseEyeOpenness(ears);
    expect(open[2]).toBeCloseTo(0);
    for (const i of [0, 1, 3, 9]) expect(open[i]).toBeCloseTo(1);
  });

  it('should give half-closed eyes about 0.5, and frames without a face 0', () => {
    const ears = [0.4, 0.4, 0.4, 0.2, null];
    const open = normaliseEyeOpenness(ears);
    expect(open[3]).toBeCloseTo(0.5);
    expect(open[4]).toBe(0);
    expect(normaliseEyeOpenness([null, null])).toEqual([0, 0]);
  });
});

describe('gaze', () => {
  it('should say center for centred irises and a frontal head', () => {
    const g = gazeAngles(face());
    expect(g.x).toBeCloseTo(0);
    expect(g.y).toBeCloseTo(0);
    expect(gazeDirection(gazeDirectionX(g.x), gazeDirectionY(g.y))).toBe('center');
  });

  it("should use the person's own sides: irises toward the image left = the person's right", () => {
    // Eye half-width 10 px; shift 8 px toward image left (the outer corner of the right eye).
    const right = gazeAngles(face({ irisDx: -8 }));
    expect(right.x).toBeGreaterThan(45);
    expect(gazeDirectionX(right.x)).toBe('right');
    const left = gazeAngles(face({ irisDx: 8 }));
    expect(left.x).toBeLessThan(-45);
    expect(gazeDirectionX(left.x)).toBe('left');
  });

  it('should map the iris shift to degrees through the eyeball radius', () => {
    // radius = 0.42 × 20 px = 8.4 px; shift 2 px → asin(2 / 8.4).
    expect(gazeAngles(face({ irisDx: -2 })).x).toBeCloseTo((Math.asin(2 / 8.4) * 180) / Math.PI, 3);
  });

  it('should read up/down from the vertical iris shift and combine the labels', () => {
    const g = gazeAngles(face({ irisDy: -4, irisDx: 8 }));
    expect(gazeDirectionY(g.y)).toBe('up');
    expect(gazeDirection(gazeDirectionX(g.x), gazeDirectionY(g.y))).toBe('up-left');
    expect(gazeDirectionY(gazeAngles(face({ irisDy: 4 })).y)).toBe('down');
  });

  it('should add head yaw and pitch (engine: yaw > 0 = own right, pitch > 0 = down)', () => {
    const g = gazeAngles(face({ rotation: { roll: 0, yaw: 0.5, pitch: 0.3 } }));
    expect(g.x).toBeCloseTo(28.648, 2);
    expect(g.y).toBeCloseTo(-17.189, 2);
    expect(gazeAngles(face({ rotation: { roll: 0, yaw: 0.5, pitch: 0 } }), false).x).toBeCloseTo(0);
  });

  it('should fall back to the head alone without iris points, and be unmeasured with neither', () => {
    const g = gazeAngles(face({ iris: false, rotation: { roll: 0, yaw: -0.4, pitch: 0 } }));
    expect(g.eyeX).toBeNull();
    expect(g.measured).toBe(true);
    expect(gazeDirectionX(g.x)).toBe('left');
    expect(gazeAngles(face({ iris: false, rotation: null })).measured).toBe(false);
    expect(gazeAngles(null).measured).toBe(false);
  });
});

describe('mouth and smile', () => {
  it('should measure the mouth relative to the inter-ocular distance (60 px)', () => {
    const m = mouthMetrics(face({ mouthHalfWidth: 15 }))!;
    expect(m.width).toBeCloseTo(30 / 60);
    expect(m.open).toBeCloseTo(4 / 60);
    expect(m.lift).toBeCloseTo(-2 / 60); // corners 2 px below the upper inner lip
    expect(mouthMetrics(null)).toBeNull();
  });

  it('should score a wider mouth with raised corners as a full smile, the neutral mouth 0', () => {
    const neutral = mouthMetrics(face())!;
    const baseline = { width: neutral.width, lift: neutral.lift };
    expect(smileRatio(neutral, baseline)).toBe(0);
    const smile = mouthMetrics(face({ mouthHalfWidth: 19, cornerLift: 3 }))!;
    expect(smileRatio(smile, baseline)).toBeCloseTo(1);
    const wider = mouthMetrics(face({ mouthHalfWidth: 19 }))!;
    expect(smileRatio(wider, baseline)).toBeCloseTo(0.5);
    expect(smileRatio(null, baseline)).toBe(0);
  });
});

describe('emotion', () => {
  it('should pick the top label, neutral when unsure, unknown without a face', () => {
    expect(
      topEmotion(
        face({
          emotion: [
            { emotion: 'Sad', score: 0.6 },
            { emotion: 'happy', score: 0.3 },
          ],
        }),
      ),
    ).toBe('sad');
    expect(topEmotion(face({ emotion: [{ emotion: 'angry', score: 0.2 }] }))).toBe('neutral');
    expect(topEmotion(face({ emotion: [] }))).toBe('unknown');
    expect(topEmotion(null)).toBe('unknown');
  });
});
