/**
 * @module containers/media/engines/frame-pipeline/source-frames
 * The source's frames for the frames path: yuv420p at plan size from one decode, or, when the
 * render loops the source, from one decoder per pass until the output has its frames. Each pass
 * is the same decode as one without looping (the mouth analysis's), so a frame's `sourceIndex`
 * names the same picture there; `-stream_loop` instead let the fps filter drop or repeat a frame
 * at each restart, which the mouth editor had to find again by thumbnails.
 */
import { spawnFfmpeg } from '../../core/ffmpeg.js';
import { decoderArgs } from './ffmpeg-args.js';
import type { YuvFrame } from './editors.js';
import { readRecords } from './frames.js';
import { frameCount, type RenderPlan } from './plan.js';
import type { RecordPool } from './record-pool.js';
import { yuv420pSize } from './yuv.js';

export interface SourceFrameOptions {
  /** Restart the source until the plan's frame count is reached (fit `loop`). */
  loop: boolean;
  pool?: RecordPool;
  signal?: AbortSignal;
  /** What a failed decoder becomes (the caller's error type). */
  decodeError: (err: unknown) => Error;
}

/**
 * @example
 * for await (const frame of decodeSourceFrames(source, plan, { loop, pool, decodeError })) edit(frame);
 */
export async function* decodeSourceFrames(
  source: string,
  plan: RenderPlan,
  { loop, pool, signal, decodeError }: SourceFrameOptions,
): AsyncGenerator<YuvFrame> {
  const { width, height, fps } = plan;
  const total = frameCount(plan);
  let index = 0;
  for (;;) {
    using dec = spawnFfmpeg(decoderArgs(source, plan, { loop: false, pixFmt: 'yuv420p' }), signal);
    dec.child.stdin.end();
    let sourceIndex = 0;
    for await (const yuv of readRecords(dec.child.stdout, yuv420pSize(width, height), pool)) {
      yield { index, sourceIndex, time: index / fps, width, height, yuv };
      index++;
      sourceIndex++;
      // The encoder stops at the plan's duration; a looping pass stops here (its decoder is killed).
      if (loop && index >= total) return;
    }
    await dec.done.catch((err) => {
      throw decodeError(err);
    });
    // A pass without a single frame would loop for ever.
    if (!loop || sourceIndex === 0) return;
  }
}
