import { describe, expect, it } from 'vitest';
import {
  downsampleYuv,
  FrameCanvas,
  yuv420pSize,
  yuvToRgb,
} from '../../../../../../containers/media/engines/frame-pipeline/yuv.js';

const W = 40,
  H = 36;

/** A busy yuv420p picture (every byte different from its neighbours). */
function noise(seed = 7): Buffer {
  const yuv = Buffer.alloc(yuv420pSize(W, H));
  let s = seed;
  for (let i = 0; i < yuv.length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    yuv[i] = 16 + ((s >>> 16) % 220);
  }
  return yuv;
}

describe('FrameCanvas', () => {
  it('should leave the picture bit for bit as it was when nothing is edited', () => {
    const yuv = noise();
    const before = Buffer.from(yuv);
    const canvas = new FrameCanvas(W, H);
    canvas.begin(yuv);
    canvas.region({ x0: -5, y0: 3, x1: 30, y1: 50 });
    expect(canvas.commit()).toBe(0);
    expect(yuv.equals(before)).toBe(true);
  });

  it('should read an edited colour back as written (within a level), its neighbours untouched', () => {
    const yuv = Buffer.alloc(yuv420pSize(W, H));
    yuv.fill(126, 0, W * H); // Y
    yuv.fill(128, W * H); // U, V
    const canvas = new FrameCanvas(W, H);
    canvas.begin(yuv);
    const rgba = canvas.region({ x0: 0, y0: 0, x1: 1, y1: 1 });
    // Mid gray, one level under the exact matrix's 128 (ffmpeg's offset).
    expect([...rgba.subarray(0, 4)]).toEqual([127, 127, 127, 255]);
    const block = [
      [2, 2],
      [3, 2],
      [2, 3],
      [3, 3],
    ];
    for (const colour of [
      [200, 40, 30],
      [20, 160, 220],
      [90, 90, 90],
    ]) {
      canvas.begin(yuv);
      const px = canvas.region({ x0: 0, y0: 0, x1: 7, y1: 7 });
      for (const [x, y] of block) px.set(colour, (y * W + x) * 4);
      expect(canvas.commit()).toBe(4);
      canvas.begin(yuv);
      const back = canvas.region({ x0: 0, y0: 0, x1: 7, y1: 7 });
      for (const [x, y] of block)
        for (let c = 0; c < 3; c++)
          expect(Math.abs(back[(y * W + x) * 4 + c] - colour[c])).toBeLessThanOrEqual(1);
    }
    // Neighbouring blocks keep their bytes.
    expect(yuv[2 * W + 4]).toBe(126);
    expect(yuv[W * H + W / 2 + 2]).toBe(128);
  });

  it('should write back only the edited pixels and the chroma of their 2×2 blocks', () => {
    const yuv = noise(3);
    const before = Buffer.from(yuv);
    const canvas = new FrameCanvas(W, H);
    canvas.begin(yuv);
    const rgba = canvas.region({ x0: 10, y0: 10, x1: 20, y1: 20 });
    const p = 13 * W + 15; // odd row, odd column: block (14, 12)
    rgba[p * 4] = rgba[p * 4] > 128 ? 0 : 255;
    expect(canvas.commit()).toBe(1);
    const diff: number[] = [];
    for (let i = 0; i < yuv.length; i++) if (yuv[i] !== before[i]) diff.push(i);
    const ci = 6 * (W / 2) + 7;
    expect(diff.every((i) => [p, W * H + ci, W * H + (W / 2) * (H / 2) + ci].includes(i))).toBe(true);
    expect(diff).toContain(p);
  });

  it('should start each frame afresh: a region converted for one frame is not reused for the next', () => {
    const [a, b] = [noise(1), noise(2)];
    const canvas = new FrameCanvas(W, H);
    canvas.begin(a);
    const first = Buffer.from(canvas.region({ x0: 0, y0: 0, x1: 8, y1: 8 }).subarray(0, 4));
    canvas.commit();
    canvas.begin(b);
    const second = Buffer.from(canvas.region({ x0: 0, y0: 0, x1: 8, y1: 8 }).subarray(0, 4));
    expect(first.equals(second)).toBe(false);
    expect([...second]).toEqual([...yuvToRgb(b, W, H, 1).rgb.subarray(0, 3), 255]);
  });
});

describe('yuvToRgb', () => {
  it('should take the nearest pixel of each output pixel, converted like the canvas', () => {
    const yuv = noise(5);
    const canvas = new FrameCanvas(W, H);
    canvas.begin(yuv);
    const full = canvas.region({ x0: 0, y0: 0, x1: W - 1, y1: H - 1 });
    for (const scale of [0.5625, 0.375, 1]) {
      const { rgb, w, h } = yuvToRgb(yuv, W, H, scale);
      expect([w, h]).toEqual([Math.max(2, Math.round(W * scale)), Math.max(2, Math.round(H * scale))]);
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) {
          const sx = Math.min(W - 1, Math.floor((x + 0.5) / scale)),
            sy = Math.min(H - 1, Math.floor((y + 0.5) / scale));
          const want = [...full.subarray((sy * W + sx) * 4, (sy * W + sx) * 4 + 3)];
          expect([...rgb.subarray((y * w + x) * 3, (y * w + x) * 3 + 3)]).toEqual(want);
        }
    }
  });
});

describe('downsampleYuv', () => {
  it('should give a flat picture its own colour, and a split one both halves', () => {
    const yuv = Buffer.alloc(yuv420pSize(W, H));
    yuv.fill(126, 0, W * H);
    yuv.fill(128, W * H);
    for (let y = 0; y < H; y++) yuv.fill(235, y * W + W / 2, (y + 1) * W); // right half white
    const rgb = downsampleYuv(yuv, W, H, 8, 6);
    expect([...rgb.subarray(0, 3)]).toEqual([127, 127, 127]);
    expect([...rgb.subarray(7 * 3, 8 * 3)]).toEqual([254, 254, 254]);
  });
});
