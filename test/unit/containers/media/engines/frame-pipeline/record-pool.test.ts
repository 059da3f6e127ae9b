import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readRecords } from '../../../../../../containers/media/engines/frame-pipeline/frames.js';
import { RecordPool } from '../../../../../../containers/media/engines/frame-pipeline/record-pool.js';

describe('RecordPool', () => {
  it('hands back given buffers, keeps at most `keep` idle ones, ignores other sizes and repeats', () => {
    const pool = new RecordPool(16, 2);
    const a = pool.take(),
      b = pool.take(),
      c = pool.take();
    expect(new Set([a, b, c]).size).toBe(3);
    pool.give(a);
    pool.give(a);
    pool.give(Buffer.alloc(8));
    pool.give(b);
    pool.give(c); // over `keep`: dropped
    const again = [pool.take(), pool.take(), pool.take()];
    expect(again).toContain(a);
    expect(again).toContain(b);
    expect(again).not.toContain(c);
  });
});

describe('readRecords with a pool', () => {
  it('refills records the consumer handed back, with the right bytes', async () => {
    const stream = new PassThrough();
    const bytes = Buffer.from(Array.from({ length: 40 }, (_, i) => i));
    stream.end(bytes);
    const pool = new RecordPool(8);
    const seen = new Set<Buffer>();
    const got: number[][] = [];
    for await (const r of readRecords(stream, 8, pool)) {
      seen.add(r);
      got.push([...r]);
      pool.give(r);
    }
    expect(got).toEqual([0, 1, 2, 3, 4].map((k) => Array.from({ length: 8 }, (_, i) => k * 8 + i)));
    expect(seen.size).toBeLessThan(5);
  });
});
