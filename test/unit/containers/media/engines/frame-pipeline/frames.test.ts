import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  readRecords,
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
