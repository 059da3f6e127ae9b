/**
 * @module containers/media/engines/frame-pipeline/yuv
 * The frames path works in the decoder's and the encoder's own pixel format, yuv420p (planes Y,
 * then U and V at half width and height, no padding): 1.5 bytes per pixel through the pipes
 * instead of 4, and neither ffmpeg converts to or from RGBA (both use less CPU:
 * docs/benchmarks.md). The mouth blends in these planes; the eye
 * editor still thinks in RGB: `FrameCanvas` converts only the regions it asks for, and writes
 * back only the pixels it changed, so the rest of the picture reaches the encoder bit for bit as
 * decoded.
 * Conversions: BT.601 limited range in 8.8 fixed point (ffmpeg's default for untagged video),
 * with ffmpeg's offset (below); a region goes out and back with the same matrix and offset, so
 * edits blend with their surroundings.
 */

/** A pixel rectangle, inclusive, in frame coordinates. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const clamp8 = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : v);

/** Bytes of a yuv420p picture (even sides). */
export const yuv420pSize = (width: number, height: number) => width * height * 1.5;

/** Offsets of the U and V planes, the chroma row length and the chroma rows. */
export function planes(width: number, height: number) {
  const u = width * height;
  return { u, v: u + (width >> 1) * (height >> 1), cw: width >> 1, ch: height >> 1 };
}

/**
 * ffmpeg's own yuv420p → RGBA (swscale, x86) comes out lower than the exact matrix by ≈ 0.96,
 * 1.41 and 0.91 levels in R, G and B (mean over a 720p frame of the bench clip; checked against
 * the service's ffmpeg in `test/container/source-frames.test.ts`).
 * The face models were measured on ffmpeg's conversion, and on these sub-level details their
 * landmarks move (one level brighter mesh input moved the gaze test from 8.3° to 10.1°), so the
 * conversion here keeps that offset, in 1/256 levels, and the way back removes it.
 */
const FFMPEG_RGB_OFFSET = [246, 361, 233] as const;
const [OR, OG, OB] = FFMPEG_RGB_OFFSET;

/** `CLAMP[(v + CLAMP_BIAS) >> 8]` is v >> 8 clamped to 0..255, for v of any pixel's channel sum. */
const CLAMP_OFFSET = 512;
const CLAMP_BIAS = CLAMP_OFFSET << 8;
const CLAMP = Uint8Array.from({ length: 1536 }, (_, i) => clamp8(i - CLAMP_OFFSET));

/** One pixel Y, U, V → packed R, G, B into `out` at `o`. */
function yuvToRgbAt(Y: number, U: number, V: number, out: Uint8Array, o: number): void {
  const c = 298 * (Y - 16) + 128 + CLAMP_BIAS,
    d = U - 128,
    e = V - 128;
  out[o] = CLAMP[(c + 409 * e - OR) >> 8];
  out[o + 1] = CLAMP[(c - 100 * d - 208 * e - OG) >> 8];
  out[o + 2] = CLAMP[(c + 516 * d - OB) >> 8];
}

/** The offset's share of Y, U and V (8.8 fixed point over 256ths: the matrix rows × offset). */
const Y_OFF = (66 * OR + 129 * OG + 25 * OB) >> 8,
  U_OFF = (-38 * OR - 74 * OG + 112 * OB) >> 8,
  V_OFF = (112 * OR - 94 * OG - 18 * OB) >> 8;

const lumaOf = (r: number, g: number, b: number) => ((66 * r + 129 * g + 25 * b + Y_OFF + 128) >> 8) + 16;

/** The size of `yuvToRgb`'s picture of a `width`×`height` frame at `scale`. */
export const rgbSizeAt = (width: number, height: number, scale: number) => ({
  w: Math.max(2, Math.round(width * scale)),
  h: Math.max(2, Math.round(height * scale)),
});

/**
 * yuv420p frame → RGB at `scale` (nearest sample: landmarks need the shapes, not the texture);
 * the face meshes' input. Into `into` when it has the size (a pooled buffer).
 */
export function yuvToRgb(
  yuv: Uint8Array,
  width: number,
  height: number,
  scale: number,
  into?: Uint8Array,
): { rgb: Uint8Array; w: number; h: number } {
  const { w, h } = rgbSizeAt(width, height, scale);
  const { u, v, cw } = planes(width, height);
  const rgb = into?.length === w * h * 3 ? into : new Uint8Array(w * h * 3);
  const cols = new Int32Array(w);
  for (let x = 0; x < w; x++) cols[x] = Math.min(width - 1, Math.floor((x + 0.5) / scale));
  let o = 0;
  for (let y = 0; y < h; y++) {
    const sy = Math.min(height - 1, Math.floor((y + 0.5) / scale));
    const row = sy * width,
      crow = (sy >> 1) * cw;
    for (let x = 0; x < w; x++, o += 3) {
      const sx = cols[x];
      yuvToRgbAt(yuv[row + sx], yuv[u + crow + (sx >> 1)], yuv[v + crow + (sx >> 1)], rgb, o);
    }
  }
  return { rgb, w, h };
}

/**
 * yuv420p frame → RGB `dw`×`dh`, each pixel the mean of 4 luma samples (2×2 spread over its cell)
 * with the chroma at the cell's centre: the segmenter's small input. Into `into` when it has the
 * size (a pooled buffer).
 */
export function downsampleYuv(
  yuv: Uint8Array,
  sw: number,
  sh: number,
  dw: number,
  dh: number,
  into?: Uint8Array,
): Uint8Array {
  const { u, v, cw } = planes(sw, sh);
  const out = into?.length === dw * dh * 3 ? into : new Uint8Array(dw * dh * 3);
  for (let y = 0; y < dh; y++) {
    const sy0 = Math.min(sh - 1, Math.floor(((y + 0.25) * sh) / dh));
    const sy1 = Math.min(sh - 1, Math.floor(((y + 0.75) * sh) / dh));
    const cy = Math.min((sh >> 1) - 1, Math.floor(((y + 0.5) * sh) / dh) >> 1);
    for (let x = 0; x < dw; x++) {
      const sx0 = Math.min(sw - 1, Math.floor(((x + 0.25) * sw) / dw));
      const sx1 = Math.min(sw - 1, Math.floor(((x + 0.75) * sw) / dw));
      const cx = Math.min(cw - 1, Math.floor(((x + 0.5) * sw) / dw) >> 1);
      const Y =
        (yuv[sy0 * sw + sx0] + yuv[sy0 * sw + sx1] + yuv[sy1 * sw + sx0] + yuv[sy1 * sw + sx1] + 2) >> 2;
      yuvToRgbAt(Y, yuv[u + cy * cw + cx], yuv[v + cy * cw + cx], out, (y * dw + x) * 3);
    }
  }
  return out;
}

/** Tile side of the canvas's bookkeeping (even: a tile holds whole chroma samples). */
const TILE = 16;

/**
 * A full-size RGBA view of one yuv420p frame at a time, converted tile by tile on demand.
 * @example
 * canvas.begin(frame.yuv);
 * blend(canvas.region(box), …);   // RGBA, valid inside box
 * canvas.commit();                // changed pixels back into frame.yuv
 */
export class FrameCanvas {
  /** RGBA, frame-sized; only the regions asked for since `begin` hold this frame's pixels. */
  readonly rgba: Uint8Array;
  readonly #rgba32: Uint32Array;
  /** The same regions as converted, to tell edited pixels from untouched ones. */
  readonly #pristine32: Uint32Array;
  readonly #loaded: Uint8Array;
  readonly #tilesX: number;
  #touched: number[] = [];
  #yuv: Uint8Array | null = null;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    if (width % 2 || height % 2) throw new Error('FrameCanvas: yuv420p needs even sides');
    this.rgba = new Uint8Array(width * height * 4);
    this.#rgba32 = new Uint32Array(this.rgba.buffer);
    this.#pristine32 = new Uint32Array(width * height);
    this.#tilesX = Math.ceil(width / TILE);
    this.#loaded = new Uint8Array(this.#tilesX * Math.ceil(height / TILE));
  }

  /** Starts a frame: `yuv` is read by `region` and written by `commit`. */
  begin(yuv: Uint8Array): void {
    if (yuv.length !== yuv420pSize(this.width, this.height)) throw new Error('FrameCanvas: wrong frame size');
    for (const t of this.#touched) this.#loaded[t] = 0;
    this.#touched = [];
    this.#yuv = yuv;
  }

  /** The canvas, holding this frame's RGBA at least inside `box` (clamped to the frame). */
  region(box: Box): Uint8Array {
    const tx0 = Math.max(0, Math.floor(box.x0 / TILE)),
      ty0 = Math.max(0, Math.floor(box.y0 / TILE));
    const tx1 = Math.min(this.#tilesX - 1, Math.floor(box.x1 / TILE)),
      ty1 = Math.min(this.#loaded.length / this.#tilesX - 1, Math.floor(box.y1 / TILE));
    for (let ty = ty0; ty <= ty1; ty++)
      for (let tx = tx0; tx <= tx1; tx++) {
        const t = ty * this.#tilesX + tx;
        if (this.#loaded[t]) continue;
        this.#loaded[t] = 1;
        this.#touched.push(t);
        this.#convertTile(tx, ty);
      }
    return this.rgba;
  }

  /** Writes the pixels edited since `begin` back into the frame's yuv420p; returns how many. */
  commit(): number {
    let changed = 0;
    for (const t of this.#touched) changed += this.#storeTile(t % this.#tilesX, Math.floor(t / this.#tilesX));
    return changed;
  }

  #tileBox(tx: number, ty: number) {
    return {
      x0: tx * TILE,
      y0: ty * TILE,
      x1: Math.min(this.width, (tx + 1) * TILE),
      y1: Math.min(this.height, (ty + 1) * TILE),
    };
  }

  /** `yuvToRgbAt` per 2×2 block: the chroma terms once per block, each pixel one 32-bit store. */
  #convertTile(tx: number, ty: number): void {
    const yuv = this.#yuv!;
    const { width: W } = this;
    const { u, v, cw } = planes(W, this.height);
    const { x0, y0, x1, y1 } = this.#tileBox(tx, ty);
    const out = this.#rgba32,
      was = this.#pristine32;
    for (let y = y0; y < y1; y += 2) {
      const crow = (y >> 1) * cw;
      for (let x = x0; x < x1; x += 2) {
        const ci = crow + (x >> 1);
        const d = yuv[u + ci] - 128,
          e = yuv[v + ci] - 128;
        const rv = 409 * e - OR + CLAMP_BIAS,
          gv = -100 * d - 208 * e - OG + CLAMP_BIAS,
          bv = 516 * d - OB + CLAMP_BIAS;
        for (let k = 0; k < 4; k++) {
          const p = (y + (k >> 1)) * W + x + (k & 1);
          const c = 298 * (yuv[p] - 16) + 128;
          // Little-endian RGBA: R in the low byte, alpha 255 in the high one.
          const px =
            (CLAMP[(c + rv) >> 8] |
              (CLAMP[(c + gv) >> 8] << 8) |
              (CLAMP[(c + bv) >> 8] << 16) |
              0xff000000) >>>
            0;
          out[p] = px;
          was[p] = px;
        }
      }
    }
  }

  /**
   * Per 2×2 block (one chroma sample): untouched blocks keep their bytes; in an edited block the
   * edited pixels get their new luma and the block the mean chroma of its four pixels.
   */
  #storeTile(tx: number, ty: number): number {
    const yuv = this.#yuv!;
    const { width: W } = this;
    const { u, v, cw } = planes(W, this.height);
    const { x0, y0, x1, y1 } = this.#tileBox(tx, ty);
    const px = this.rgba,
      now = this.#rgba32,
      was = this.#pristine32;
    let changed = 0;
    for (let y = y0; y < y1; y += 2)
      for (let x = x0; x < x1; x += 2) {
        const p = y * W + x;
        const a = now[p] !== was[p],
          b = now[p + 1] !== was[p + 1],
          c = now[p + W] !== was[p + W],
          d = now[p + W + 1] !== was[p + W + 1];
        if (!(a || b || c || d)) continue;
        const i = p * 4,
          j = i + 4,
          k = i + W * 4,
          l = k + 4;
        if (a) yuv[p] = lumaOf(px[i], px[i + 1], px[i + 2]);
        if (b) yuv[p + 1] = lumaOf(px[j], px[j + 1], px[j + 2]);
        if (c) yuv[p + W] = lumaOf(px[k], px[k + 1], px[k + 2]);
        if (d) yuv[p + W + 1] = lumaOf(px[l], px[l + 1], px[l + 2]);
        changed += +a + +b + +c + +d;
        const r = px[i] + px[j] + px[k] + px[l],
          g = px[i + 1] + px[j + 1] + px[k + 1] + px[l + 1],
          bl = px[i + 2] + px[j + 2] + px[k + 2] + px[l + 2];
        // Mean of four in 8.8 fixed point: (sum × k + 512) >> 10 is k × mean, rounded.
        const ci = (y >> 1) * cw + (x >> 1);
        yuv[u + ci] = ((-38 * r - 74 * g + 112 * bl + 4 * U_OFF + 512) >> 10) + 128;
        yuv[v + ci] = ((112 * r - 94 * g - 18 * bl + 4 * V_OFF + 512) >> 10) + 128;
      }
    return changed;
  }
}
