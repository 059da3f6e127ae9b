import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  readRecords,
  rgbaToRgb,
  yuv420pMask,
} from '../../../../../../containers/media/engines/frame-pipeline/frames.js';

describe('readRecords', () => {
  it('should cut a stream into fixed-size records across chunk borders and drop a short tail', async () => {
    const stream = Readable.from([Buffer.from([1, 2, 3]), Buffer.from([4, 5]), Buffer.from([6, 7])]);
    const records: number[][] = [];
    for await (const r of readRecords(stream, 3)) records.push([...r]);
    expect(records).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
  });
});

describe('yuv420pMask', () => {
  it('should carry the mask in Y and its 2×2 average in U and V', () => {
    // 4×2 mask: left 2×2 block person (255), right block half (0 and 255 on a diagonal).
    const mask = new Uint8Array([255, 255, 0, 255, 255, 255, 255, 0]);
    const yuv = yuv420pMask(mask, 4, 2);
    expect(yuv.length).toBe(4 * 2 + 2 * 2 * 1);
    expect([...yuv.subarray(0, 8)]).toEqual([...mask]);
    expect([...yuv.subarray(8, 10)]).toEqual([255, 128]);
    expect([...yuv.subarray(10, 12)]).toEqual([255, 128]);
  });
});

describe('rgbaToRgb', () => {
  it('should take the nearest source pixel of each output pixel and drop alpha', () => {
    const W = 37,
      H = 23;
    const rgba = new Uint8Array(W * H * 4).map((_, i) => (i * 13) % 256);
    for (const scale of [0.5625, 0.375, 1]) {
      const { rgb, w, h } = rgbaToRgb(rgba, W, H, scale);
      expect([w, h]).toEqual([Math.max(2, Math.round(W * scale)), Math.max(2, Math.round(H * scale))]);
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) {
          const sx = Math.min(W - 1, Math.floor((x + 0.5) / scale)),
            sy = Math.min(H - 1, Math.floor((y + 0.5) / scale));
          const want = [...rgba.subarray((sy * W + sx) * 4, (sy * W + sx) * 4 + 3)];
          expect([...rgb.subarray((y * w + x) * 3, (y * w + x) * 3 + 3)]).toEqual(want);
        }
    }
  });
});
