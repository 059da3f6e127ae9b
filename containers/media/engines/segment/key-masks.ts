/**
 * @module containers/media/engines/segment/key-masks
 * Masks at a low rate with motion-aware interpolation, as pure numbers: the segmenter runs on
 * key frames only (every k-th frame, plus a frame whose picture, or a part of it, drifted far from the last key,
 * plus both sides of a sudden jump such as a cut), and the frames between two keys get a blend
 * of the two key masks. A tiny gray thumbnail of each frame is the motion measure.
 */

/** Side of the gray thumbnail the motion measure compares (32² = 1024 samples). */
export const THUMB_SIDE = 32;

export interface KeyMaskOptions {
  /** A key at least every `every` frames (≥ 1). */
  every: number;
  /** Mean absolute thumbnail change (0..255) since the last key that forces a key. */
  driftThreshold: number;
  /**
   * Mean change of the most-changed tenth of the thumbnail (`localChange`) since the last key that
   * forces a key: an arm or a hand moving over a still background moves the whole-frame mean
   * little. Off when absent.
   */
  localDriftThreshold?: number;
  /** Change between two consecutive frames that is a jump: both frames become keys. */
  jumpThreshold: number;
}

/**
 * Gray THUMB_SIDE² thumbnail of an RGB image (box average over every other row and column: a
 * quarter of the pixels is plenty for a motion measure, and it runs on every frame).
 */
export function grayThumb(rgb: Uint8Array, width: number, height: number): Uint8Array {
  if (thumbScratch.column.length !== width) thumbScratch.column = new Uint32Array(width);
  const { sums, counts, column } = thumbScratch;
  sums.fill(0);
  counts.fill(0);
  for (let x = 0; x < width; x++) column[x] = Math.min(THUMB_SIDE - 1, Math.floor((x * THUMB_SIDE) / width));
  // Every other row/column only where each thumbnail cell still gets samples.
  const stepX = width >= 2 * THUMB_SIDE ? 2 : 1,
    stepY = height >= 2 * THUMB_SIDE ? 2 : 1;
  for (let y = 0; y < height; y += stepY) {
    const ty = Math.min(THUMB_SIDE - 1, Math.floor((y * THUMB_SIDE) / height)) * THUMB_SIDE;
    for (let x = 0; x < width; x += stepX) {
      const t = ty + column[x];
      const i = (y * width + x) * 3;
      sums[t] += rgb[i] * 77 + rgb[i + 1] * 150 + rgb[i + 2] * 29;
      counts[t]++;
    }
  }
  const out = new Uint8Array(sums.length);
  for (let t = 0; t < out.length; t++) out[t] = counts[t] ? Math.round(sums[t] / 256 / counts[t]) : 0;
  return out;
}

/** grayThumb's sums, counts and column table, reused from frame to frame (it runs on every frame). */
const thumbScratch = {
  sums: new Float64Array(THUMB_SIDE * THUMB_SIDE),
  counts: new Uint32Array(THUMB_SIDE * THUMB_SIDE),
  column: new Uint32Array(0),
};

/** The share of thumbnail cells whose change `localChange` averages. */
export const LOCAL_SHARE = 0.1;

/**
 * Mean absolute difference of the `share` of cells that changed most between two thumbnails,
 * 0..255 (a histogram of the differences: no sort).
 */
export function localChange(a: Uint8Array, b: Uint8Array, share = LOCAL_SHARE): number {
  const counts = new Uint32Array(256);
  for (let i = 0; i < a.length; i++) counts[Math.abs(a[i] - b[i])]++;
  const take = Math.max(1, Math.round(a.length * share));
  let left = take,
    sum = 0;
  for (let d = 255; d >= 0 && left > 0; d--) {
    const n = Math.min(counts[d], left);
    sum += n * d;
    left -= n;
  }
  return sum / take;
}

/** Mean absolute difference of two thumbnails, 0..255. */
export function thumbChange(a: Uint8Array, b: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
  return sum / a.length;
}

/**
 * Decides, frame by frame in order, which frames are keys. `next` returns the indices that
 * become keys with this frame: `[]`, `[i]`, or `[i - 1, i]` at a jump (the frame before the jump
 * closes the old picture's span, so no in-between mask blends two different pictures).
 * A repeat (a frame the decoder skipped, filled with the one before) shows the last decoded
 * frame's picture: its every-k key goes back to that frame, whose moment the picture is.
 * `finish` names the last frame as a key when frames are still waiting for one.
 */
export class KeyMaskPlanner {
  #index = -1;
  #lastKey = -1;
  /** The last frame that was not a repeat. */
  #lastDecoded = -1;
  #keyThumb: Uint8Array | null = null;
  #prevThumb: Uint8Array | null = null;
  /** Keys forced by motion (drift or jump), beyond the every-k ones. */
  motionKeys = 0;

  constructor(readonly options: KeyMaskOptions) {}

  next(thumb: Uint8Array, repeat = false): number[] {
    const i = ++this.#index;
    if (!repeat) this.#lastDecoded = i;
    const { every, driftThreshold, localDriftThreshold, jumpThreshold } = this.options;
    let keys: number[] = [];
    if (!this.#keyThumb) keys = [i];
    else if (this.#prevThumb && thumbChange(thumb, this.#prevThumb) > jumpThreshold) {
      keys = this.#lastKey === i - 1 ? [i] : [i - 1, i];
      if (i - this.#lastKey < every) this.motionKeys += keys.length;
    } else if (i - this.#lastKey >= every) keys = [this.#lastDecoded > this.#lastKey ? this.#lastDecoded : i];
    else if (
      thumbChange(thumb, this.#keyThumb) > driftThreshold ||
      (localDriftThreshold !== undefined && localChange(thumb, this.#keyThumb) > localDriftThreshold)
    ) {
      keys = [i];
      this.motionKeys++;
    }
    if (keys.length) {
      this.#lastKey = keys[keys.length - 1];
      this.#keyThumb = thumb;
    }
    this.#prevThumb = thumb;
    return keys;
  }

  /** The last frame's index when it must become a key to close the stream, else null. */
  finish(): number | null {
    return this.#index > this.#lastKey ? this.#index : null;
  }
}

/** The mask `t` of the way (0..1) from key mask `a` to key mask `b` (linear, per pixel). */
export function blendMasks(
  a: Uint8Array,
  b: Uint8Array,
  t: number,
  out: Uint8Array = new Uint8Array(a.length),
): Uint8Array {
  const w = weightOf(t);
  for (let i = 0; i < a.length; i++) out[i] = mix(a[i], b[i], w);
  return out;
}

/** `t` (0..1) as a weight out of 256. */
const weightOf = (t: number) => Math.round(t * 256);

/** `x` and `y` mixed with `w`/256 of `y`, rounded. */
const mix = (x: number, y: number, w: number) => (x * (256 - w) + y * w + 128) >> 8;

/**
 * The in-between masks of frames `from + 1 .. to - 1` for keys at `from` (mask a) and `to` (mask
 * b), one at a time. With `into`, every mask is written there: each is valid until the next.
 * Each is `blendMasks(a, b, t)`, computed only where the keys differ: elsewhere (most of a mask,
 * all person or all background in both) the blend is `a` itself.
 */
export function* inBetweenMasks(
  a: Uint8Array,
  from: number,
  b: Uint8Array,
  to: number,
  into?: Uint8Array,
): Generator<Uint8Array> {
  // This call's own list (renders run side by side, and each waits between its masks).
  let n = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) n++;
  const differing = new Uint32Array(n);
  for (let i = 0, k = 0; k < n; i++) if (a[i] !== b[i]) differing[k++] = i;
  for (let j = from + 1; j < to; j++) {
    const out = into ?? new Uint8Array(a.length);
    out.set(a);
    const w = weightOf((j - from) / (to - from));
    for (let k = 0; k < n; k++) {
      const i = differing[k];
      out[i] = mix(a[i], b[i], w);
    }
    yield out;
  }
}
