import { describe, expect, it } from 'vitest';
import { upsampleMaskIntoAlpha } from '../../../../../../containers/media/engines/segment/mask-tracker.js';

/** Per-pixel bilinear sampling with the same pixel-centre convention (the reference). */
function reference(mask: Uint8Array, mw: number, mh: number, w: number, h: number): Uint8Array {
  const out = new Uint8Array(w * h);
  const at = (x: number, y: number) => mask[Math.min(mh - 1, y) * mw + Math.min(mw - 1, x)];
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const fx = Math.max(0, ((x + 0.5) * mw) / w - 0.5),
        fy = Math.max(0, ((y + 0.5) * mh) / h - 0.5);
      const x0 = Math.floor(fx),
        y0 = Math.floor(fy),
        wx = fx - x0,
        wy = fy - y0;
      const top = at(x0, y0) * (1 - wx) + at(x0 + 1, y0) * wx;
      const bot = at(x0, y0 + 1) * (1 - wx) + at(x0 + 1, y0 + 1) * wx;
      out[y * w + x] = top * (1 - wy) + bot * wy;
    }
  return out;
}

describe('upsampleMaskIntoAlpha', () => {
  it.each([
    [256, 256, 1280, 720],
    [160, 96, 640, 360],
    [7, 5, 33, 17],
  ])('matches per-pixel bilinear within rounding (%i×%i → %i×%i), RGB untouched', (mw, mh, w, h) => {
    const mask = new Uint8Array(mw * mh).map((_, i) => (i * 37 + ((i / mw) | 0) * 11) % 256);
    const rgba = new Uint8Array(w * h * 4).map((_, i) => i % 251);
    const before = rgba.slice();
    upsampleMaskIntoAlpha(mask, mw, mh, rgba, w, h);
    const want = reference(mask, mw, mh, w, h);
    let worst = 0,
      rgbChanged = 0;
    for (let i = 0; i < w * h; i++) {
      worst = Math.max(worst, Math.abs(rgba[i * 4 + 3] - want[i]));
      for (let k = 0; k < 3; k++) if (rgba[i * 4 + k] !== before[i * 4 + k]) rgbChanged++;
    }
    expect(worst).toBeLessThanOrEqual(1);
    expect(rgbChanged).toBe(0);
  });
});
