import { describe, expect, it } from 'vitest';
import {
  blendMasks,
  grayThumb,
  inBetweenMasks,
  KeyMaskPlanner,
  localChange,
  THUMB_SIDE,
  thumbChange,
} from '../../../../../../containers/media/engines/segment/key-masks.js';

const OPTIONS = { every: 5, driftThreshold: 8, jumpThreshold: 30 };
const flat = (v: number) => new Uint8Array(THUMB_SIDE * THUMB_SIDE).fill(v);

/** Keys the planner picks for a sequence of thumbnails, with the closing key. */
function keysOf(thumbs: Uint8Array[], options = OPTIONS, repeats = new Set<number>()): number[] {
  const planner = new KeyMaskPlanner(options);
  const keys = thumbs.flatMap((t, i) => planner.next(t, repeats.has(i)));
  const last = planner.finish();
  return last === null ? keys : [...keys, last];
}

describe('grayThumb and thumbChange', () => {
  it('should average an RGB image into a gray thumbnail with luma weights', () => {
    const w = 64,
      h = 48;
    const rgb = new Uint8Array(w * h * 3);
    for (let i = 0; i < w * h; i++) rgb.set([200, 100, 0], i * 3);
    const t = grayThumb(rgb, w, h);
    expect(t.length).toBe(THUMB_SIDE * THUMB_SIDE);
    expect(t[0]).toBe(Math.round((200 * 77 + 100 * 150) / 256));
    expect(new Set(t).size).toBe(1);
  });

  it('should measure the mean absolute change', () => {
    expect(thumbChange(flat(10), flat(10))).toBe(0);
    expect(thumbChange(flat(10), flat(25))).toBe(15);
  });

  it('should measure the change of the most-changed tenth of the cells', () => {
    const moved = flat(10);
    moved.fill(210, 0, Math.round(moved.length * 0.1)); // a tenth of the cells, +200
    expect(thumbChange(flat(10), moved)).toBeCloseTo(20, 0);
    expect(localChange(flat(10), moved)).toBe(200);
    expect(localChange(moved, flat(10))).toBe(200);
    expect(localChange(flat(10), flat(25))).toBe(15); // an even change is the same either way
    moved.fill(10, 0, 51); // half of those cells back: the top tenth mixes 200s and 0s
    expect(localChange(flat(10), moved)).toBeCloseTo(100, 0);
  });
});

describe('KeyMaskPlanner', () => {
  it('should key every k-th frame of a still picture, and close the stream with the last frame', () => {
    expect(keysOf(Array.from({ length: 12 }, () => flat(50)))).toEqual([0, 5, 10, 11]);
  });

  it('should not add a closing key when the last frame is a key', () => {
    expect(keysOf(Array.from({ length: 11 }, () => flat(50)))).toEqual([0, 5, 10]);
  });

  it('should force a key where the picture drifted far from the last key (slow motion)', () => {
    // +3 gray levels a frame: below the jump threshold, beyond the drift threshold after 3 frames.
    const thumbs = Array.from({ length: 8 }, (_, i) => flat(50 + 3 * i));
    expect(keysOf(thumbs)).toEqual([0, 3, 6, 7]);
  });

  it('should force a key where a small part moved far (an arm), though the whole-frame mean barely moved', () => {
    // A patch of 15 % of the cells brightens by 16 a frame: the whole-frame mean moves 2.4 a frame
    // (past the drift threshold of 8 only at frame 4), the patch's own change passes 40 at frame 3.
    const arm = (level: number) => {
      const t = flat(50);
      t.fill(50 + level, 0, Math.round(t.length * 0.15));
      return t;
    };
    const thumbs = Array.from({ length: 5 }, (_, i) => arm(16 * i));
    expect(keysOf(thumbs)).toEqual([0, 4]); // the whole-frame drift alone
    const planner = new KeyMaskPlanner({ ...OPTIONS, localDriftThreshold: 40 });
    expect(thumbs.map((t) => planner.next(t)).flat()).toEqual([0, 3]);
  });

  it('should key both sides of a jump (a cut), so no in-between mask mixes two pictures', () => {
    const thumbs = [
      ...Array.from({ length: 3 }, () => flat(20)),
      ...Array.from({ length: 3 }, () => flat(200)),
    ];
    expect(keysOf(thumbs)).toEqual([0, 2, 3, 5]);
  });

  it('should put an every-k key that falls on a repeat on the decoded frame the repeat copies', () => {
    // Odd frames are repeats (a decoder skipping B-frames): the picture at 5 is frame 4's.
    const odd = new Set([1, 3, 5, 7, 9, 11]);
    expect(
      keysOf(
        Array.from({ length: 12 }, () => flat(50)),
        OPTIONS,
        odd,
      ),
    ).toEqual([0, 4, 8, 11]);
    // A run of repeats longer than k: the key stays on the repeat (its picture is all there is).
    const run = new Set([1, 2, 3, 4, 5, 6, 7]);
    expect(
      keysOf(
        Array.from({ length: 8 }, () => flat(50)),
        OPTIONS,
        run,
      ),
    ).toEqual([0, 5, 7]);
  });

  it('should key every frame with every = 1', () => {
    expect(
      keysOf(
        Array.from({ length: 4 }, () => flat(9)),
        { ...OPTIONS, every: 1 },
      ),
    ).toEqual([0, 1, 2, 3]);
  });
});

describe('blendMasks and inBetweenMasks', () => {
  it('should blend linearly between two key masks', () => {
    const a = new Uint8Array([0, 255, 100]);
    const b = new Uint8Array([255, 0, 100]);
    expect([...blendMasks(a, b, 0)]).toEqual([0, 255, 100]);
    expect([...blendMasks(a, b, 1)]).toEqual([255, 0, 100]);
    expect([...blendMasks(a, b, 0.5)]).toEqual([128, 128, 100]);
  });

  it('should give one mask per frame strictly between the keys, moving evenly', () => {
    const masks = [...inBetweenMasks(new Uint8Array([0]), 10, new Uint8Array([200]), 14)];
    expect(masks.map((m) => m[0])).toEqual([50, 100, 150]);
    expect([...inBetweenMasks(new Uint8Array([0]), 3, new Uint8Array([9]), 4)]).toEqual([]);
    // Into one buffer: each mask in turn, read before the next.
    const into = new Uint8Array(1);
    const seen = [];
    for (const m of inBetweenMasks(new Uint8Array([0]), 10, new Uint8Array([200]), 14, into)) {
      expect(m).toBe(into);
      seen.push(m[0]);
    }
    expect(seen).toEqual([50, 100, 150]);
  });

  it('should be blendMasks exactly, pixels the keys share included, into a reused buffer too', () => {
    // Masks like real ones: mostly 0 or 255 in both keys, an edge band that moved between them.
    const a = new Uint8Array(4096).map((_, i) => (i % 64 < 30 ? 255 : i % 64 < 34 ? (i * 37) % 256 : 0));
    const b = new Uint8Array(4096).map((_, i) => (i % 64 < 33 ? 255 : i % 64 < 37 ? (i * 91) % 256 : 0));
    const into = new Uint8Array(4096);
    for (const out of [undefined, into]) {
      const masks: Uint8Array[] = [];
      for (const m of inBetweenMasks(a, 0, b, 7, out)) masks.push(Uint8Array.from(m)); // read before the next
      expect(masks).toHaveLength(6);
      masks.forEach((m, k) => expect(m).toEqual(blendMasks(a, b, (k + 1) / 7)));
    }
  });
});

describe('inBetweenMasks side by side', () => {
  it('should keep each pair of keys its own, when two renders interleave their masks', () => {
    // Two renders in one process: each waits between its masks (the encoder pipe), the other runs.
    const pair = (shift: number) => ({
      a: new Uint8Array(1024).map((_, i) => (i % 32 < 10 + shift ? 255 : 0)),
      b: new Uint8Array(1024).map((_, i) => (i % 32 < 14 + shift ? 255 : 0)),
    });
    const [p, q] = [pair(0), pair(9)];
    const [gp, gq] = [inBetweenMasks(p.a, 0, p.b, 4), inBetweenMasks(q.a, 0, q.b, 4)];
    for (let k = 1; k < 4; k++) {
      const mp = gp.next().value as Uint8Array;
      const mq = gq.next().value as Uint8Array;
      expect(mp).toEqual(blendMasks(p.a, p.b, k / 4));
      expect(mq).toEqual(blendMasks(q.a, q.b, k / 4));
    }
  });
});

describe('KeyMaskPlanner.motionKeys', () => {
  it('should count the keys motion forced, not the every-k ones', () => {
    const planner = new KeyMaskPlanner(OPTIONS);
    for (const t of [
      ...Array.from({ length: 3 }, () => flat(20)),
      ...Array.from({ length: 7 }, () => flat(200)),
    ])
      planner.next(t);
    // Keys: 0 (first), 2 and 3 (the jump), 8 (every-k after the jump): two forced by motion.
    expect(planner.motionKeys).toBe(2);
  });
});
