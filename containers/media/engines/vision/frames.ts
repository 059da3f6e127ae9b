/**
 * @module containers/media/engines/vision/frames
 * Frame sampling: ONE ffmpeg decode of the input, `fps=N,scale=W:-2`, frames streamed from
 * stdout as binary PPM (P6). PPM carries its own width and height, so we never have to predict
 * ffmpeg's rounding, rotation or SAR handling. Frames are yielded one at a time; the pipe's
 * backpressure stops ffmpeg while the consumer is busy, so memory stays flat with file length.
 */
import type { Readable } from 'node:stream';
import { mediaConfig } from '../../core/config.js';
import { probeFile, spawnFfmpeg } from '../../core/ffmpeg.js';
import type { RgbFrame } from './engines.js';
import { niceProcess } from './priority.js';

/** Width frames are scaled to before inference; the models' inputs are ≤ 256 px anyway. */
export const DEFAULT_FRAME_WIDTH_PX = 640;

export interface DecodeFramesOptions {
  /** Frames sampled per second of media. */
  fps: number;
  /** Output width in pixels (height keeps the aspect ratio, even). Default 640. */
  width?: number;
  /** Skip the decoder's deblocking filter (see `decoderArgs`). Default: `VISION_FAST_DECODE` (off). */
  fastDecode?: boolean;
  /** Nice value of the ffmpeg decoder. Default: `VISION_NICE` (10). */
  nice?: number;
  /** The source's frame rate (0: unknown). Default: probed from a file path; unknown for a stream. */
  sourceFps?: number;
  signal?: AbortSignal;
}

/**
 * Decodes `input` (a file path, or a stream piped into ffmpeg's stdin) into RGB frames at
 * `fps`. Throws `FfmpegError` when ffmpeg cannot read the input.
 * @example
 * for await (const frame of decodeFrames('/tmp/clip.mp4', { fps: 2 })) console.log(frame.time);
 */
export async function* decodeFrames(
  input: string | Readable,
  options: DecodeFramesOptions,
): AsyncGenerator<RgbFrame> {
  const {
    fps,
    width = DEFAULT_FRAME_WIDTH_PX,
    fastDecode = mediaConfig().vision.fastDecode,
    nice = mediaConfig().vision.nice,
    signal,
  } = options;
  if (!(fps > 0 && fps <= 60)) throw new RangeError(`fps must be in (0, 60], got ${fps}`);
  const source = typeof input === 'string' ? input : 'pipe:0';
  const sourceFps =
    options.sourceFps ?? (typeof input === 'string' ? ((await probeFile(input, signal)).video?.fps ?? 0) : 0);
  using proc = spawnFfmpeg(
    [
      ...decoderArgs(fastDecode, skipNonReferenceWorthwhile(fps, sourceFps)),
      '-i',
      source,
      '-map',
      '0:v:0',
      '-an',
      '-sn',
      '-dn',
      '-vf',
      frameFilter(fps, width),
      '-c:v',
      'ppm',
      '-f',
      'image2pipe',
      'pipe:1',
    ],
    signal,
  );
  // The decoder yields to speech recognition like the vision threads do (./priority.ts).
  niceProcess(proc.child.pid, nice);
  if (typeof input === 'string') proc.child.stdin.end();
  else {
    input.on('error', () => proc.dispose());
    input.pipe(proc.child.stdin);
  }
  const parser = new PpmStreamParser();
  let index = 0;
  for await (const chunk of proc.child.stdout as AsyncIterable<Buffer>) {
    for (const image of parser.push(chunk)) {
      yield { time: round3(index / fps), index, width: image.width, height: image.height, data: image.data };
      index++;
    }
  }
  await proc.done;
  if (parser.pendingBytes > 0)
    throw new Error(`ffmpeg output ended inside a frame (${parser.pendingBytes} bytes left)`);
}

/**
 * Decoder options, before `-i`. One decoder thread: the decode runs beside the vision workers
 * (and Whisper) on 2 cores, where frame threads only add synchronisation (one thread uses less
 * CPU). `fast` skips the in-loop deblocking filter, ≈ a quarter of an H.264 decode's CPU; after
 * the scale to 640 px the frames differ from the deblocked ones by < 1.3 grey levels on average.
 */
export function decoderArgs(fast: boolean, skipNonReference = false): string[] {
  return [
    '-threads',
    '1',
    ...(fast ? ['-skip_loop_filter', 'all'] : []),
    ...(skipNonReference ? ['-skip_frame', 'noref'] : []),
  ];
}

/**
 * Pure: whether the decoder may skip the frames no other frame refers to (`-skip_frame noref`,
 * most B-frames). Only when sampling keeps at most one source frame in three: the fps filter
 * then takes a neighbouring frame instead, ≤ 40 ms away at 25 fps, and the decode costs ≈ 40 %
 * less on a stream with B-frames (docs/benchmarks.md "Visual analytics speed"). An unknown
 * source rate (0) decodes every frame.
 */
export function skipNonReferenceWorthwhile(sampleFps: number, sourceFps: number): boolean {
  return sourceFps > 0 && sampleFps * MIN_SOURCE_FRAMES_PER_SAMPLE <= sourceFps;
}
const MIN_SOURCE_FRAMES_PER_SAMPLE = 3;

/**
 * The sampling filter: pick the frames first, then scale only those. eof_action=pass: a still
 * image (one frame, no duration) still yields its frame, and a video's tail shorter than one
 * sampling interval is not dropped.
 */
export function frameFilter(fps: number, width: number): string {
  // rgb24 said outright: from a source of more than 8 bits (an iPhone's HDR HEVC, ProRes) ffmpeg
  // would otherwise pick 16-bit PPM (maxval 65535), which the parser below refuses. The height is
  // the display aspect's (`dar`: the pixels' own aspect counted), so anamorphic video (DVD, DV) is
  // seen as it is shown, not stretched.
  return `fps=${fps}:eof_action=pass,scale=${width}:round(ow/dar/2)*2:flags=bilinear,format=rgb24`;
}

const round3 = (v: number) => Math.round(v * 1000) / 1000;

/** One parsed P6 image. */
export interface PpmImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/**
 * Incremental parser for a concatenation of binary PPM (P6, maxval 255) images, as ffmpeg's
 * `image2pipe` writes them. Pure: feed chunks, get whole images.
 */
export class PpmStreamParser {
  private buffered: Buffer[] = [];
  private bufferedBytes = 0;

  get pendingBytes(): number {
    return this.bufferedBytes;
  }

  push(chunk: Buffer): PpmImage[] {
    this.buffered.push(chunk);
    this.bufferedBytes += chunk.length;
    const images: PpmImage[] = [];
    for (;;) {
      const header = this.peekHeader();
      if (!header) break;
      const total = header.headerBytes + header.width * header.height * 3;
      if (this.bufferedBytes < total) break;
      const all =
        this.buffered.length === 1 ? this.buffered[0] : Buffer.concat(this.buffered, this.bufferedBytes);
      // Copy the pixels out so the (large) shared buffer can be released and the frame can be
      // transferred to a worker without dragging its neighbours along.
      const data = new Uint8Array(all.subarray(header.headerBytes, total));
      images.push({ width: header.width, height: header.height, data });
      const rest = all.subarray(total);
      this.buffered = rest.length ? [Buffer.from(rest)] : [];
      this.bufferedBytes = rest.length;
    }
    return images;
  }

  /** Reads `P6 <w> <h> <maxval>` + one whitespace byte, if all of it has arrived. */
  private peekHeader(): { width: number; height: number; headerBytes: number } | null {
    if (this.bufferedBytes < 2) return null;
    const head = Buffer.concat(this.buffered, Math.min(this.bufferedBytes, 64));
    if (head[0] !== 0x50 || head[1] !== 0x36) throw new Error('ffmpeg frame stream is not PPM (P6)');
    const fields: number[] = [];
    let i = 2;
    while (fields.length < 3) {
      while (i < head.length && isSpace(head[i])) i++;
      if (i < head.length && head[i] === 0x23) {
        while (i < head.length && head[i] !== 0x0a) i++; // comment to end of line
        continue;
      }
      const start = i;
      while (i < head.length && head[i] >= 0x30 && head[i] <= 0x39) i++;
      if (i >= head.length) return null; // the header is still arriving
      if (start === i) throw new Error('malformed PPM header');
      fields.push(Number(head.subarray(start, i).toString('ascii')));
    }
    if (i >= head.length) return null;
    const [width, height, maxval] = fields;
    if (maxval !== 255) throw new Error(`unsupported PPM maxval ${maxval}`);
    return { width, height, headerBytes: i + 1 };
  }
}

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
