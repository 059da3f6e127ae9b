import { describe, expect, it } from 'vitest';
import { startRecordProcess } from '../../../../../../containers/media/engines/frame-pipeline/record-process.js';
import { WorkLimitError } from '../../../../../../containers/media/core/ffmpeg.js';

/** A child that answers each 4-byte request with the bytes reversed. */
const ECHO = `let b = Buffer.alloc(0);
process.stdin.on('data', (c) => {
  b = Buffer.concat([b, c]);
  while (b.length >= 4) { process.stdout.write(Buffer.from(b.subarray(0, 4)).reverse()); b = b.subarray(4); }
});`;
/** A child that reads and never answers. */
const SILENT = `process.stdin.resume();`;

const start = (script: string, answerTimeoutMs: number) =>
  startRecordProcess(process.execPath, ['-e', script], {
    recordBytes: 4,
    parse: (r) => [...r],
    name: 'the test child',
    answerTimeoutMs,
  });

describe('startRecordProcess', () => {
  it('should answer in order, also after waiting for requests longer than its answer timeout', async () => {
    using child = start(ECHO, 300);
    expect(
      await Promise.all([
        child.request(Uint8Array.of(1, 2, 3, 4)),
        child.request(Uint8Array.of(5, 6), Uint8Array.of(7, 8)),
      ]),
    ).toEqual([
      [4, 3, 2, 1],
      [8, 7, 6, 5],
    ]);
    await new Promise((r) => setTimeout(r, 800)); // idle, but nothing is awaited: not stuck
    expect(await child.request(Uint8Array.of(9, 9, 9, 1))).toEqual([1, 9, 9, 9]);
  });

  it('should fail an awaited answer that does not come within the timeout, and end the child', async () => {
    using child = start(SILENT, 300);
    const t0 = Date.now();
    const err = await child.request(Uint8Array.of(1, 2, 3, 4)).catch((e: Error) => e);
    expect(err).toBeInstanceOf(WorkLimitError);
    expect((err as Error).message).toBe('the test child answered nothing for 0.3 s');
    expect(Date.now() - t0).toBeLessThan(2_000);
    await expect(child.request(Uint8Array.of(1, 2, 3, 4))).rejects.toThrow(/answered nothing/);
  });
});
