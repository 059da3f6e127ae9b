/**
 * @module containers/media/engines/frame-pipeline/record-pool
 * Recycled frame buffers. A fresh 3.7 MB buffer per 720p RGBA frame costs ≈ 5 ms of page faults
 * on its first write, a reused one almost nothing (docs/benchmarks.md); a consumer
 * that hands finished frames back lets the reader fill the same few buffers again. Bounded: at
 * most `keep` idle buffers; a frame never handed back is simply garbage-collected.
 */

export class RecordPool {
  private readonly idle: Buffer[] = [];

  constructor(
    readonly size: number,
    private readonly keep = 8,
  ) {}

  /** An idle buffer of `size` bytes, or a new one. Its contents are undefined. */
  take(): Buffer {
    return this.idle.pop() ?? Buffer.allocUnsafe(this.size);
  }

  /** Hands `buf` back: the caller (and everything it passed `buf` to) is done with it. */
  give(buf: Buffer): void {
    if (buf.length === this.size && this.idle.length < this.keep && !this.idle.includes(buf))
      this.idle.push(buf);
  }
}
