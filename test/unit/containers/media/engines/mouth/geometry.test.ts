import { describe, expect, it } from 'vitest';
import {
  applySimilarity,
  fitSimilarity,
  invertSimilarity,
} from '../../../../../../containers/media/engines/mouth/similarity.js';
import { mouthEllipse } from '../../../../../../containers/media/engines/mouth/landmarks.js';
import { blendPatch, cutPatch } from '../../../../../../containers/media/engines/mouth/blend.js';

describe('fitSimilarity', () => {
  it('should recover a rotation + scale + shift from noisy-free points', () => {
    const truth = { a: 1.1 * Math.cos(0.2), b: 1.1 * Math.sin(0.2), tx: 12, ty: -4 };
    const from = [
      { x: 0, y: 0 },
      { x: 10, y: 1 },
      { x: 3, y: 8 },
      { x: -5, y: 4 },
    ];
    const to = from.map((p) => applySimilarity(truth, p));
    const t = fitSimilarity(from, to);
    for (const k of ['a', 'b', 'tx', 'ty'] as const) expect(t[k]).toBeCloseTo(truth[k], 9);
    const back = applySimilarity(invertSimilarity(t), to[2]);
    expect(back.x).toBeCloseTo(3, 9);
    expect(back.y).toBeCloseTo(8, 9);
  });
});

describe('mouthEllipse', () => {
  it('should hold both lip outlines inside, with margin', () => {
    const lips = [
      { x: 40, y: 50 },
      { x: 60, y: 45 },
      { x: 80, y: 50 },
      { x: 60, y: 58 },
    ];
    const open = [
      { x: 42, y: 50 },
      { x: 60, y: 44 },
      { x: 78, y: 50 },
      { x: 60, y: 70 },
    ];
    const e = mouthEllipse([lips[0], lips[2]], [lips, open]);
    for (const p of [...lips, ...open]) {
      const dx = p.x - e.center.x,
        dy = p.y - e.center.y;
      const u = (dx * e.axis.x + dy * e.axis.y) / e.a,
        v = (-dx * e.axis.y + dy * e.axis.x) / e.b;
      expect(Math.hypot(u, v)).toBeLessThan(0.8);
    }
  });
});

describe('blendPatch', () => {
  const W = 64,
    H = 48;
  const U = W * H,
    V = U + (W / 2) * (H / 2);
  /** A flat yuv420p frame: Y 120, U 110, V 150. */
  const frame = () => {
    const d = new Uint8Array(W * H * 1.5);
    d.fill(120, 0, U).fill(110, U, V).fill(150, V);
    return d;
  };
  const ellipse = { center: { x: 32, y: 24 }, axis: { x: 1, y: 0 }, a: 12, b: 8 };
  const inside = (px: number, py: number) => Math.hypot((px - 32) / 12, (py - 24) / 8) < 1;

  it('should leave the frame unchanged when the patch is the frame itself', () => {
    const d = frame();
    for (let i = 0; i < U; i++) d[i] = (i * 7) % 256;
    for (let i = U; i < d.length; i++) d[i] = (i * 13) % 256;
    const before = Uint8Array.from(d);
    const patch = cutPatch(d, W, H, 10, 10, 44, 28);
    expect([patch.x0, patch.y0, patch.w % 2, patch.h % 2]).toEqual([10, 10, 0, 0]);
    blendPatch(d, W, H, patch, { a: 1, b: 0, tx: 0, ty: 0 }, ellipse);
    expect(Buffer.from(d).equals(Buffer.from(before))).toBe(true);
  });

  it('should write only inside the ellipse, luma per pixel and chroma per 2×2 block, fully at its centre', () => {
    const d = frame();
    // A dark, reddish mouth in a skin patch that matches the frame at the ring.
    const src = frame();
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) if (Math.hypot(x + 0.5 - 32, y + 0.5 - 24) < 4) src[y * W + x] = 20;
    for (let y = 0; y < H / 2; y++)
      for (let x = 0; x < W / 2; x++)
        if (Math.hypot(2 * x + 1 - 32, 2 * y + 1 - 24) < 4) src[V + (y * W) / 2 + x] = 200;
    const patch = cutPatch(src, W, H, 0, 0, W, H);
    const n = blendPatch(d, W, H, patch, { a: 1, b: 0, tx: 0, ty: 0 }, ellipse);
    expect(n).toBeGreaterThan(200);
    expect(d[24 * W + 32]).toBeLessThan(30);
    expect(d[V + 12 * (W / 2) + 16]).toBeGreaterThan(190);
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) if (!inside(x + 0.5, y + 0.5)) expect(d[y * W + x]).toBe(120);
    for (let y = 0; y < H / 2; y++)
      for (let x = 0; x < W / 2; x++)
        if (!inside(2 * x + 1, 2 * y + 1)) {
          expect(d[U + (y * W) / 2 + x]).toBe(110);
          expect(d[V + (y * W) / 2 + x]).toBe(150);
        }
  });

  it('should move the patch by the similarity: a shifted patch lands back where it was cut', () => {
    const src = frame();
    for (let y = 20; y < 28; y++) for (let x = 28; x < 36; x++) src[y * W + x] = 30; // the mouth at (32, 24)
    const patch = cutPatch(src, W, H, 0, 0, W, H);
    const d = frame();
    // The frame's mouth is 4 px right, 2 px down of the source's: toFrame moves it there.
    const moved = { ...ellipse, center: { x: 36, y: 26 } };
    blendPatch(d, W, H, patch, { a: 1, b: 0, tx: 4, ty: 2 }, moved);
    expect(d[26 * W + 36]).toBe(30);
    expect(d[24 * W + 30]).toBe(120);
  });
});
