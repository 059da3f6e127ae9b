/**
 * @module containers/media/engines/segment/mask-tracker
 * Turns a per-frame segmenter into a stable mask stream: segment every Nth frame, smooth in
 * time with an exponential moving average (no edge flicker), feather the edge (no cut-out
 * look), and hold the mask for the frames in between. Masks stay at the model's small size;
 * the encoder scales them to the frame.
 */
import type { Segmenter } from './segmenter.js';

export interface MaskTrackerOptions {
  /** Segment one frame in N. Default 3 (≈ 8–10 masks/s at 25–30 fps). */
  everyNth?: number;
  /** EMA weight of the newest mask, 0..1. Default 0.6: responsive yet steady. */
  emaWeight?: number;
  /** Feather passes of a 3×3 box blur on the small mask. Default 2 (≈ 2 px at 256², ~10 px at 1080p). */
  featherPasses?: number;
  /** Probability mapped to 0 (background) and 1 (person); between is a soft ramp. Default [0.25, 0.75]. */
  ramp?: [number, number];
}

export class MaskTracker {
  readonly width: number;
  readonly height: number;
  #ema: Float32Array | null = null;
  #mask: Uint8Array;
  readonly #opts: Required<MaskTrackerOptions>;
  /** Segmenter calls made so far (for the render report). */
  segmentations = 0;
  segmentMs = 0;

  constructor(
    private readonly segmenter: Segmenter,
    { everyNth = 3, emaWeight = 0.6, featherPasses = 2, ramp = [0.25, 0.75] }: MaskTrackerOptions = {},
  ) {
    this.width = segmenter.inputWidth;
    this.height = segmenter.inputHeight;
    this.#opts = { everyNth, emaWeight, featherPasses, ramp };
    this.#mask = new Uint8Array(this.width * this.height).fill(255);
  }

  /** True when frame `index` will be segmented (callers can skip preparing input otherwise). */
  needsInput(index: number): boolean {
    return index % this.#opts.everyNth === 0 || this.#ema === null;
  }

  /** The gray (0..255) mask for frame `index`; `rgb` is needed only when `needsInput(index)`. */
  async next(index: number, rgb?: Uint8Array): Promise<Uint8Array> {
    if (!this.needsInput(index)) return this.#mask;
    if (!rgb) throw new Error('MaskTracker.next: frame input required');
    const t0 = performance.now();
    const p = await this.segmenter.segment(rgb);
    this.segmentMs += performance.now() - t0;
    this.segmentations++;
    const { emaWeight, featherPasses, ramp } = this.#opts;
    if (!this.#ema) this.#ema = Float32Array.from(p);
    else for (let i = 0; i < p.length; i++) this.#ema[i] += emaWeight * (p[i] - this.#ema[i]);
    const mask = probabilityToMask(this.#ema, this.width, this.height, { featherPasses, ramp });
    this.#mask = mask;
    return mask;
  }
}

/**
 * Person probabilities → the gray mask the composite uses: `featherPasses` 3×3 box blurs (no
 * cut-out look), then a smoothstep ramp from `ramp[0]` (0, background) to `ramp[1]` (255, person).
 */
export function probabilityToMask(
  p: Float32Array,
  width: number,
  height: number,
  { featherPasses = 2, ramp = [0.25, 0.75] }: Pick<MaskTrackerOptions, 'featherPasses' | 'ramp'> = {},
): Uint8Array {
  let soft: Float32Array = p;
  // Ping-pong between two scratch grids (never `p` itself): no new arrays per mask.
  if (featherScratch[0].length !== p.length)
    featherScratch = [new Float32Array(p.length), new Float32Array(p.length)];
  for (let k = 0; k < featherPasses; k++) soft = boxBlur3(soft, width, height, featherScratch[k % 2]);
  const [lo, hi] = ramp;
  const mask = new Uint8Array(soft.length);
  for (let i = 0; i < soft.length; i++) {
    const v = (soft[i] - lo) / (hi - lo);
    mask[i] = v <= 0 ? 0 : v >= 1 ? 255 : Math.round(v * v * (3 - 2 * v) * 255); // smoothstep
  }
  return mask;
}

/**
 * Scratch of the feather passes, reused from mask to mask: typed arrays made per mask or frame
 * were most of the render's external-memory churn, which V8 answers with frequent full GCs.
 */
let featherScratch = [new Float32Array(0), new Float32Array(0)],
  blurRows = new Float32Array(0);

/** 3×3 box blur with clamped edges, into `out` (not `src`). */
function boxBlur3(src: Float32Array, w: number, h: number, out: Float32Array): Float32Array {
  if (blurRows.length !== src.length) blurRows = new Float32Array(src.length);
  const tmp = blurRows;
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      const a = src[row + Math.max(0, x - 1)],
        b = src[row + x],
        c = src[row + Math.min(w - 1, x + 1)];
      tmp[row + x] = (a + b + c) / 3;
    }
  }
  for (let y = 0; y < h; y++) {
    const up = Math.max(0, y - 1) * w,
      mid = y * w,
      down = Math.min(h - 1, y + 1) * w;
    for (let x = 0; x < w; x++) out[mid + x] = (tmp[up + x] + tmp[mid + x] + tmp[down + x]) / 3;
  }
  return out;
}
