/**
 * @module containers/media/engines/render/frames
 * Raw frames between the decoder and the encoder: a bounded async iterator that cuts a byte
 * stream into fixed-size frames, and a writer that respects the encoder's backpressure.
 */
import type { Readable, Writable } from 'node:stream';

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
  { width, height, channels, fps }: { width: number; height: number; channels: 3 | 4; fps: number },
): AsyncGenerator<RawFrame> {
  const size = width * height * channels;
  let frame = Buffer.allocUnsafe(size);
  let filled = 0;
  let index = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let offset = 0;
    while (offset < chunk.length) {
      const n = Math.min(size - filled, chunk.length - offset);
      chunk.copy(frame, filled, offset, offset + n);
      filled += n;
      offset += n;
      if (filled === size) {
        yield { index, time: index / fps, width, height, channels, data: frame };
        index++;
        // A fresh buffer: the consumer may still hold the previous one (e.g. in the encoder pipe).
        frame = Buffer.allocUnsafe(size);
        filled = 0;
      }
    }
  }
}

/** Writes `data`, waiting for 'drain' when the pipe is full (backpressure). */
export function writeWithBackpressure(stream: Writable, data: Uint8Array): Promise<void> {
  if (stream.write(data)) return Promise.resolve();
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
