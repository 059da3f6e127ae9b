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
  const frame = () => {
    const d = new Uint8Array(W * H * 4);
    for (let i = 0; i < W * H; i++) d.set([100, 120, 140, 255], i * 4);
    return d;
  };
  const ellipse = { center: { x: 32, y: 24 }, axis: { x: 1, y: 0 }, a: 12, b: 8 };

  it('should leave the frame unchanged when the patch is the frame itself', () => {
    const d = frame();
    for (let i = 0; i < W * H; i++) d[i * 4] = (i * 7) % 256;
    const before = Uint8Array.from(d);
    const patch = cutPatch(d, W, H, 4, 10, 10, 44, 28);
    blendPatch(d, W, H, 4, patch, { a: 1, b: 0, tx: 0, ty: 0 }, ellipse);
    expect(Buffer.from(d).equals(Buffer.from(before))).toBe(true);
  });

  it('should write only inside the ellipse, fully at its centre, and keep alpha', () => {
    const d = frame();
    const src = new Uint8Array(W * H * 3).fill(0);
    // A dark mouth in a skin patch whose brightness matches the frame at the ring.
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++)
        src.set(Math.hypot(x - 32, y - 24) < 4 ? [20, 20, 20] : [100, 120, 140], (y * W + x) * 3);
    const patch = { x0: 0, y0: 0, w: W, h: H, rgb: src };
    const n = blendPatch(d, W, H, 4, patch, { a: 1, b: 0, tx: 0, ty: 0 }, ellipse);
    expect(n).toBeGreaterThan(200);
    expect(d[(24 * W + 32) * 4]).toBeLessThan(30);
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        const i = (y * W + x) * 4;
        expect(d[i + 3]).toBe(255);
        if (Math.hypot((x + 0.5 - 32) / 12, (y + 0.5 - 24) / 8) >= 1)
          expect([d[i], d[i + 1], d[i + 2]]).toEqual([100, 120, 140]);
      }
  });
});
