import { describe, expect, it } from 'vitest';
import { classifyGesture, fingerExtension, isPinch } from '../../../../../src/analytics/visual/index.js';
import type { Point } from '../../../../../src/contract/media.js';
import { handLandmarks } from './fixtures.js';

/** Rotates landmarks about the wrist, to show the labels do not depend on hand orientation. */
function rotate(points: Point[], deg: number): Point[] {
  const [cx, cy] = points[0];
  const c = Math.cos((deg * Math.PI) / 180);
  const s = Math.sin((deg * Math.PI) / 180);
  return points.map(
    ([x, y, z]) => [cx + (x - cx) * c - (y - cy) * s, cy + (x - cx) * s + (y - cy) * c, z] as Point,
  );
}

describe('gesture', () => {
  it('should see all five fingers extended on an open palm → open_hand', () => {
    const h = handLandmarks('open', 200, 300);
    expect(fingerExtension(h)).toEqual({ thumb: true, index: true, middle: true, ring: true, pinky: true });
    expect(classifyGesture(h)).toBe('open_hand');
  });

  it('should label an index-only hand pinch_or_point', () => {
    const h = handLandmarks('index', 200, 300);
    expect(fingerExtension(h)).toEqual({
      thumb: false,
      index: true,
      middle: false,
      ring: false,
      pinky: false,
    });
    expect(isPinch(h)).toBe(false);
    expect(classifyGesture(h)).toBe('pinch_or_point');
  });

  it('should label thumb and index tips touching pinch_or_point', () => {
    const h = handLandmarks('pinch', 200, 300);
    expect(isPinch(h)).toBe(true);
    expect(classifyGesture(h)).toBe('pinch_or_point');
  });

  it('should label a fist none, and no hand none', () => {
    expect(classifyGesture(handLandmarks('fist', 200, 300))).toBe('none');
    expect(classifyGesture(null)).toBe('none');
    expect(classifyGesture(handLandmarks('open', 0, 0).slice(0, 20))).toBe('none');
  });

  it('should not depend on hand orientation or size', () => {
    for (const deg of [45, 90, 180, 270]) {
      expect(classifyGesture(rotate(handLandmarks('open', 200, 300, 0.5), deg))).toBe('open_hand');
      expect(classifyGesture(rotate(handLandmarks('index', 200, 300, 2), deg))).toBe('pinch_or_point');
      expect(classifyGesture(rotate(handLandmarks('fist', 200, 300), deg))).toBe('none');
    }
  });
});
