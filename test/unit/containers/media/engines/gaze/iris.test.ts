import { describe, expect, it } from 'vitest';
import type { EyeGeometry } from '../../../../../../containers/media/engines/gaze/geometry.js';
import { locateIris } from '../../../../../../containers/media/engines/gaze/iris.js';
import {
  lidDistances,
  signedDistance,
  warpEye,
} from '../../../../../../containers/media/engines/gaze/warp.js';

/**
 * A synthetic eye: skin, an almond-shaped opening of light sclera, a dark iris disc (anti-aliased
 * by 4×4 supersampling so its centre is sub-pixel). The disc-vs-ring score is flat while the
 * scored disc stays inside the iris, so a pixel is the accuracy to expect.
 */
const eyeCenter = (eyeWidth: number) => ({
  x: Math.ceil(eyeWidth * 2.2) / 2,
  y: Math.ceil(eyeWidth * 1.2) / 2,
});

function syntheticEye(eyeWidth: number, iris: { x: number; y: number }) {
  const W = Math.ceil(eyeWidth * 2.2),
    H = Math.ceil(eyeWidth * 1.2);
  const center = eyeCenter(eyeWidth);
  const half = eyeWidth / 2,
    halfOpen = 0.2 * eyeWidth;
  const irisRadius = 0.21 * eyeWidth;
  const polygon = Array.from({ length: 16 }, (_, i) => {
    const t = (i / 16) * 2 * Math.PI;
    return { x: center.x + half * Math.cos(t), y: center.y + halfOpen * Math.sin(t) };
  });
  const insideOpening = (x: number, y: number) =>
    ((x - center.x) / half) ** 2 + ((y - center.y) / halfOpen) ** 2 < 1;
  const data = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      let v = 0;
      for (let j = 0; j < 4; j++)
        for (let i = 0; i < 4; i++) {
          const sx = x + (i + 0.5) / 4,
            sy = y + (j + 0.5) / 4;
          v += !insideOpening(sx, sy) ? 170 : Math.hypot(sx - iris.x, sy - iris.y) < irisRadius ? 50 : 225;
        }
      data.fill(Math.round(v / 16), (y * W + x) * 4, (y * W + x) * 4 + 3);
      data[(y * W + x) * 4 + 3] = 255;
    }
  const geometry = (estimate: { x: number; y: number }): EyeGeometry => ({
    center,
    axis: { x: 1, y: 0 },
    up: { x: 0, y: -1 },
    width: eyeWidth,
    polygon,
    iris: estimate,
    irisRadius,
    opening: 0.34,
  });
  return { data, W, H, geometry };
}

describe('locateIris', () => {
  // 46 px: the test clips; 110 and 160 px: 720p and 1080p close-ups.
  for (const eyeWidth of [46, 110, 160]) {
    it(`should find a ${eyeWidth} px eye's iris to a pixel from a mesh estimate ${Math.round(0.08 * eyeWidth)} px off`, () => {
      const center = eyeCenter(eyeWidth);
      const truth = { x: center.x + 0.3, y: center.y - 0.2 };
      const eye = syntheticEye(eyeWidth, truth);
      const estimate = { x: Math.round(truth.x - 0.08 * eyeWidth), y: Math.round(truth.y + 1) };
      const found = locateIris(eye.data, eye.W, eye.H, 4, eye.geometry(estimate));
      expect(Math.abs(found.x - truth.x)).toBeLessThan(1);
      expect(Math.abs(found.y - truth.y)).toBeLessThan(1);
    });
  }

  it('should stay fast on large eyes (cost per score ∝ stencil rows, not pixels)', () => {
    const eyeWidth = 144;
    const center = eyeCenter(eyeWidth);
    const eye = syntheticEye(eyeWidth, { x: center.x + 8, y: center.y });
    const t = performance.now();
    for (let i = 0; i < 10; i++) locateIris(eye.data, eye.W, eye.H, 4, eye.geometry(center));
    // Summing the stencil per pixel took ≈ 400 ms per call on a 144 px eye.
    expect((performance.now() - t) / 10).toBeLessThan(40);
  });
});

describe('lidDistances', () => {
  it("should hold exactly signedDistance's value at every pixel centre of the box", () => {
    let seed = 1;
    const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    for (let trial = 0; trial < 100; trial++) {
      const [cx, cy, w, open] = [50 + rnd() * 200, 40 + rnd() * 100, 20 + rnd() * 120, 0.1 + rnd() * 0.3];
      const polygon = Array.from({ length: 16 }, (_, i) => {
        const t = (i / 16) * 2 * Math.PI + rnd() * 0.2;
        return { x: cx + (w / 2) * Math.cos(t) + rnd(), y: cy + open * w * Math.sin(t) + rnd() };
      });
      const eye: EyeGeometry = {
        center: { x: cx, y: cy },
        axis: { x: 1, y: 0 },
        up: { x: 0, y: -1 },
        width: w,
        polygon,
        iris: { x: cx, y: cy },
        irisRadius: 0.2 * w,
        opening: open,
      };
      const f = lidDistances(eye, 400, 300);
      expect(f.w * f.h).toBeGreaterThan(0);
      let same = 0;
      for (let y = 0; y < f.h; y++)
        for (let x = 0; x < f.w; x++)
          same += +(f.sd[y * f.w + x] === signedDistance(polygon, f.x0 + x + 0.5, f.y0 + y + 0.5));
      expect(same).toBe(f.w * f.h);
    }
  });

  it('should give the iris search and the warp the same answers as measuring on their own', () => {
    for (const eyeWidth of [46, 110]) {
      const center = eyeCenter(eyeWidth);
      const eye = syntheticEye(eyeWidth, { x: center.x + 0.3, y: center.y - 0.2 });
      const g = eye.geometry({ x: center.x - 3, y: center.y + 2 });
      const field = lidDistances(g, eye.W, eye.H);
      expect(locateIris(eye.data, eye.W, eye.H, 4, g, field)).toEqual(
        locateIris(eye.data, eye.W, eye.H, 4, g),
      );
      const [a, b] = [eye.data.slice(), eye.data.slice()];
      const shift = { x: 0.07 * eyeWidth, y: -0.02 * eyeWidth };
      expect(warpEye(a, eye.W, eye.H, 4, g, shift, field)).toBeGreaterThan(0);
      warpEye(b, eye.W, eye.H, 4, g, shift);
      expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    }
  });
});
