/**
 * @module containers/media/engines/frame-pipeline/frames
 * Raw frames between the decoder and the encoder: a bounded async iterator that cuts a byte
 * stream into fixed-size frames, a writer that respects the encoder's backpressure, and the
 * blur masks as the encoder reads them.
 */
import type { Readable, Writable } from 'node:stream';
import type { RecordPool } from './record-pool.js';
import { yuv420pSize } from './yuv.js';

/** One decoded frame; `data` is owned by the consumer until the next iteration. */
export interface RawFrame {
  index: number;
  /** Seconds from the start of the output. */
  time: number;
  width: number;
  height: number;
  /** 4 (RGBA) or 3 (RGB) bytes per pixel, row-major, no padding. */
  channels: 3 | 4;
  data: Buffer;
}

/**
 * Yields whole frames from `stream`. At most one chunk is buffered beyond the current frame:
 * the stream is paused by `for await` between frames, so memory does not grow with length.
 */
export async function* readFrames(
  stream: Readable,
  {
    width,
    height,
    channels,
    fps,
    pool,
  }: { width: number; height: number; channels: 3 | 4; fps: number; pool?: RecordPool },
): AsyncGenerator<RawFrame> {
  let index = 0;
  for await (const data of readRecords(stream, width * height * channels, pool)) {
    yield { index, time: index / fps, width, height, channels, data };
    index++;
  }
}

/**
 * Yields `stream` cut into records of `size` bytes (raw frames, masks); a short tail is dropped.
 * With a `pool`, records are taken from it (the consumer hands finished ones back).
 */
export async function* readRecords(
  stream: Readable,
  size: number,
  pool?: RecordPool,
): AsyncGenerator<Buffer> {
  const fresh = () => (pool && pool.size === size ? pool.take() : Buffer.allocUnsafe(size));
  let record = fresh();
  let filled = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let offset = 0;
    while (offset < chunk.length) {
      const n = Math.min(size - filled, chunk.length - offset);
      chunk.copy(record, filled, offset, offset + n);
      filled += n;
      offset += n;
      if (filled === size) {
        yield record;
        // Another buffer: the consumer may still hold the previous one (e.g. in the encoder pipe).
        record = fresh();
        filled = 0;
      }
    }
  }
}

/**
 * Writes `data`, waiting for 'drain' when the pipe is full (backpressure). `onWritten` runs once
 * the stream no longer needs `data` (handed to the OS, or failed): then it may be reused.
 */
export function writeWithBackpressure(
  stream: Writable,
  data: Uint8Array,
  onWritten?: () => void,
): Promise<void> {
  if (stream.write(data, onWritten && (() => onWritten()))) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onDrain = () => {
      stream.off('error', onError);
      resolve();
    };
    const onError = (err: Error) => {
      stream.off('drain', onDrain);
      reject(err);
    };
    stream.once('drain', onDrain);
    stream.once('error', onError);
  });
}

/**
 * A gray mask (`width`×`height`, both even) as a yuv420p picture whose every plane is the mask
 * (chroma planes 2×2-averaged): the encoder's maskedmerge then mixes Y, U and V alike. Into
 * `into` when it has the size (a pooled buffer).
 */
export function yuv420pMask(mask: Uint8Array, width: number, height: number, into?: Buffer): Buffer {
  const size = yuv420pSize(width, height);
  const out = into?.length === size ? into : Buffer.allocUnsafe(size);
  const cw = width >> 1,
    ch = height >> 1;
  out.set(mask, 0);
  const u = width * height,
    v = u + cw * ch;
  for (let y = 0; y < ch; y++) {
    for (let x = 0; x < cw; x++) {
      const i = 2 * y * width + 2 * x;
      const m = (mask[i] + mask[i + 1] + mask[i + width] + mask[i + width + 1] + 2) >> 2;
      out[u + y * cw + x] = m;
      out[v + y * cw + x] = m;
    }
  }
  return out;
}
