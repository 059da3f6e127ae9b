/**
 * @module containers/media/engines/segment/key-mask-stream
 * One gray mask per frame, in order, from a segmenter run on key frames only (key-masks.ts):
 * frames are pushed at the segmenter's input size; keys go to the segmenter without waiting
 * for the previous one (up to `IN_FLIGHT` at once, so the segmenter process never idles while
 * this thread decodes), and each finished key releases the blended masks of the frames before it
 * as soon as a key is queued after it finished.
 */
import { grayThumb, inBetweenMasks, KeyMaskPlanner, type KeyMaskOptions } from './key-masks.js';
import { probabilityToMask } from './mask-tracker.js';
import type { Segmenter } from './segmenter.js';

/** Keys queued at the segmenter at most: one working, one waiting. */
const IN_FLIGHT = 2;

export class KeyMaskStream {
  readonly #planner: KeyMaskPlanner;
  readonly #inFlight: Array<{ index: number; map: Promise<Float32Array>; ready: boolean }> = [];
  /** The frame before, with its motion thumbnail. */
  #prev: { rgb: Uint8Array; thumb: Uint8Array } | null = null;
  #lastKey: { index: number; mask: Uint8Array } | null = null;
  /** The in-between masks' one buffer (the consumer copies each mask before it resolves). */
  #between = new Uint8Array(0);
  /** Keys segmented so far. */
  keys = 0;

  constructor(
    private readonly segmenter: Segmenter,
    options: KeyMaskOptions,
    /**
     * Receives every frame's mask, in frame order. An in-between mask's buffer is reused for the
     * next one once the returned promise resolves: copy what you keep.
     */
    private readonly emit: (mask: Uint8Array) => Promise<void>,
  ) {
    this.#planner = new KeyMaskPlanner(options);
  }

  /** Keys that motion forced (drift or jump), beyond the every-k ones. */
  get motionKeys(): number {
    return this.#planner.motionKeys;
  }

  /** The next frame, RGB at the segmenter's input size. */
  async push(rgb: Uint8Array): Promise<void> {
    const { inputWidth: w, inputHeight: h } = this.segmenter;
    const prev = this.#prev;
    const repeat = prev !== null && sameBytes(rgb, prev.rgb);
    const thumb = repeat ? prev.thumb : grayThumb(rgb, w, h);
    const keys = this.#planner.next(thumb, repeat);
    for (const index of keys) {
      const isCurrent = index === keys[keys.length - 1];
      await this.#queue(index, isCurrent ? rgb : prev!.rgb);
    }
    this.#prev = { rgb, thumb };
    if (!keys.length) await this.#releaseFinished();
  }

  /** After the last frame: closes the stream with a key and emits every remaining mask. */
  async end(): Promise<void> {
    const last = this.#planner.finish();
    if (last !== null) await this.#queue(last, this.#prev!.rgb);
    while (this.#inFlight.length) await this.#release();
  }

  async #queue(index: number, rgb: Uint8Array): Promise<void> {
    this.keys++;
    const entry = { index, map: this.segmenter.segment(rgb), ready: false };
    entry.map.then(
      () => (entry.ready = true),
      () => (entry.ready = true),
    );
    this.#inFlight.push(entry);
    await this.#releaseFinished();
  }

  /** Finished keys go out at once (the encoder waits for them); unfinished ones only past the bound. */
  async #releaseFinished(): Promise<void> {
    while (this.#inFlight.length && (this.#inFlight.length > IN_FLIGHT || this.#inFlight[0].ready))
      await this.#release();
  }

  /** Waits for the oldest key's map and emits the masks up to and including that key. */
  async #release(): Promise<void> {
    const { index, map } = this.#inFlight.shift()!;
    const mask = probabilityToMask(await map, this.segmenter.inputWidth, this.segmenter.inputHeight);
    if (this.#between.length !== mask.length) this.#between = new Uint8Array(mask.length);
    if (this.#lastKey)
      for (const m of inBetweenMasks(this.#lastKey.mask, this.#lastKey.index, mask, index, this.#between))
        await this.emit(m);
    await this.emit(mask);
    this.#lastKey = { index, mask };
  }
}

/** Byte-for-byte equal: a frame the decoder skipped comes as a copy of the one before. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.length).equals(b);
}
