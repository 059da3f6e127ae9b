/**
 * Compact frames: the Worker keeps only these, so the video section derived from them must equal
 * the one from the full observations — checked on a real clip's observations (liveportrait s13,
 * 2 fps: pose, face mesh with iris, hands) after a JSON round trip, for several option sets.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FrameObservation } from '../../../../../src/contract/media.js';
import {
  analyzeVisual,
  compactFrame,
  frameFeatures,
  isCompactFrame,
  type VisualOptions,
} from '../../../../../src/analytics/visual/index.js';
import { face, frame, handLandmarks, pose } from './fixtures.js';

const REAL: FrameObservation[] = JSON.parse(
  readFileSync(new URL('../../../../fixtures/visual/observations-s13.json', import.meta.url), 'utf8'),
);
const EVENTS = {
  fillers: [{ start: 0.4, end: 1.1 }],
  pauses: [{ start: 2, end: 2.2 }],
  positive: [{ start: 3, end: 4 }],
  negative: [{ start: 1.6, end: 1.7 }],
};
/** What the Worker holds: compact frames after NDJSON and the R2 memo (JSON both times). */
const overTheWire = (frames: FrameObservation[]) => JSON.parse(JSON.stringify(frames.map(compactFrame)));
const bytes = (v: unknown) => new TextEncoder().encode(JSON.stringify(v)).length;

describe('compactFrame', () => {
  it('should use a real clip with people, faces with iris and hands', () => {
    expect(REAL.length).toBeGreaterThanOrEqual(8);
    expect(REAL.every((f) => f.pose && f.face?.mesh.length === 478)).toBe(true);
    expect(REAL.some((f) => f.hands.length > 0)).toBe(true);
  });

  it.each<[string, VisualOptions]>([
    ['defaults', {}],
    [
      'frames unit, strict keypoints and hands',
      { postureUnit: 'frames', minKeypointScore: 0.6, minHandScore: 0.7 },
    ],
    [
      'loose thresholds, no head rotation',
      {
        minKeypointScore: 0.1,
        minHandScore: 0.2,
        useHeadRotation: false,
        gazeCenterXDeg: 3,
        gazeCenterYDeg: 25,
      },
    ],
  ])('should derive the identical video section from compact frames (%s)', (_name, options) => {
    const full = analyzeVisual(REAL, EVENTS, options);
    expect(analyzeVisual(overTheWire(REAL), EVENTS, options)).toEqual(full);
    // Per frame too, before the clip-level normalisation.
    const compact = overTheWire(REAL);
    REAL.forEach((f, i) => expect(frameFeatures(compact[i], options)).toEqual(frameFeatures(f, options)));
  });

  it('should be under 1 KB of JSON per frame, several times smaller than the full frame', () => {
    const full = bytes(REAL) / REAL.length;
    const compact = bytes(REAL.map(compactFrame)) / REAL.length;
    expect(compact).toBeLessThan(1024);
    expect(compact * 5).toBeLessThan(full);
  });

  it('should pass compact frames through unchanged and mark them', () => {
    const c = compactFrame(REAL[0]);
    expect(isCompactFrame(c)).toBe(true);
    expect(isCompactFrame(REAL[0])).toBe(false);
    expect(compactFrame(c)).toBe(c);
  });

  it('should give the same result on hand-built frames, junk included', () => {
    const frames: FrameObservation[] = [
      frame(0, {
        pose: pose(),
        face: face(),
        hands: [{ side: 'left', score: 0.9, landmarks: handLandmarks('open', 368, 400, 0.6) }],
      }),
      frame(0.5, { pose: pose(), face: face({ iris: false, rotation: null, emotion: [] }) }),
      frame(1, {
        pose: { score: NaN, keypoints: { left_shoulder: { x: NaN, y: 1, score: 1 } } },
        hands: [{ side: 'left', score: 1, landmarks: [[NaN, 0]] }],
        face: {
          score: 1,
          box: [0, 0, 0, 0],
          mesh: [[1, 1]],
          rotation: { roll: NaN, yaw: NaN, pitch: NaN },
          emotion: [],
        },
      }),
      frame(1.5),
    ];
    expect(analyzeVisual(overTheWire(frames), EVENTS)).toEqual(analyzeVisual(frames, EVENTS));
  });
});
