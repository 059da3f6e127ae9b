import { describe, expect, it } from 'vitest';
import { KeyMaskStream } from '../../../../../../containers/media/engines/segment/key-mask-stream.js';
import { probabilityToMask } from '../../../../../../containers/media/engines/segment/mask-tracker.js';
import type { Segmenter } from '../../../../../../containers/media/engines/segment/segmenter.js';

const W = 8,
  H = 8;

/** A segmenter whose map is the picture's red level everywhere: each picture has its own mask. */
function levelSegmenter(): Segmenter & { seen: number[] } {
  const seen: number[] = [];
  return {
    name: 'level',
    inputWidth: W,
    inputHeight: H,
    seen,
    segment: async (rgb) => {
      seen.push(rgb[0]);
      return new Float32Array(W * H).fill(rgb[0] / 255);
    },
    dispose() {},
    [Symbol.dispose]() {},
  };
}

const picture = (level: number) => new Uint8Array(W * H * 3).fill(level);
const maskOf = (level: number) => probabilityToMask(new Float32Array(W * H).fill(level / 255), W, H);

describe('KeyMaskStream', () => {
  it('should emit one mask per frame, in order, keying decoded pictures only when frames repeat', async () => {
    const segmenter = levelSegmenter();
    const masks: Uint8Array[] = [];
    const stream = new KeyMaskStream(
      segmenter,
      { every: 5, driftThreshold: 255, jumpThreshold: 255 },
      async (m) => {
        masks.push(Uint8Array.from(m));
      },
    );
    // Decoded pictures at even frames (levels 100, 110, …), each odd frame a copy of the one before.
    const levels = Array.from({ length: 12 }, (_, i) => 100 + 10 * (i >> 1));
    for (const level of levels) await stream.push(picture(level));
    await stream.end();

    expect(masks).toHaveLength(levels.length);
    // Keys 0, 4 (moved back from the repeat 5), 8 (from 9), and 11 closing: each key's mask is its own picture's.
    expect(segmenter.seen).toEqual([100, 120, 140, 150]);
    for (const key of [0, 4, 8, 11]) expect(masks[key]).toEqual(maskOf(levels[key]));
  });
});
