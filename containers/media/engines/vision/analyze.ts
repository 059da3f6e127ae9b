/**
 * @module containers/media/engines/vision/analyze
 * The vision step end to end: one ffmpeg decode → bounded stream of frames → worker pool →
 * observations back in time order, with per-model timing totals.
 */
import type { Readable } from 'node:stream';
import type { FrameObservation } from '../../../../src/contract/media.js';
import { mediaConfig } from '../../core/config.js';
import type { ModelTimings } from './engines.js';
import { decodeFrames, DEFAULT_FRAME_WIDTH_PX } from './frames.js';
import { sharedVisionPool, type FrameResult, type VisionPool } from './pool.js';

/** Frames allowed between the decoder and the workers, per worker: bounds memory (~0.7 MB each at 640×360). */
const IN_FLIGHT_FRAMES_PER_WORKER = 2;

export interface AnalyzeVideoOptions {
  /** Sampled frames per second. Default: `VISION_FPS` (2, see `VisionConfig.fps`). */
  fps?: number;
  /** Frame width before inference. Default 640. */
  width?: number;
  /** The source's frame rate, when the caller probed it already (see `DecodeFramesOptions`). */
  sourceFps?: number;
  /** Default: the process-wide shared pool. */
  pool?: VisionPool;
  signal?: AbortSignal;
}

/** Totals over a run; `ms_per_frame` are means of per-frame model wall times inside workers. */
export interface VisionRunStats {
  frames: number;
  wall_ms: number;
  ms_per_frame: ModelTimings & { total_wall: number };
  detected: { pose: number; face: number; hands: number };
}

/**
 * Streams one `FrameObservation` per sampled frame, in time order, as soon as it and all
 * earlier frames are done. Returns the run's stats as the generator's return value.
 * @example
 * const run = analyzeVideo('/tmp/in.mp4', { fps: 2 });
 * for (let r = await run.next(); !r.done; r = await run.next()) send(r.value);
 */
export async function* analyzeVideo(
  input: string | Readable,
  options: AnalyzeVideoOptions = {},
): AsyncGenerator<FrameObservation, VisionRunStats> {
  const {
    fps = mediaConfig().vision.fps,
    width = DEFAULT_FRAME_WIDTH_PX,
    pool = sharedVisionPool(),
    sourceFps,
    signal,
  } = options;
  const started = performance.now();
  const totals: ModelTimings = { face: 0, pose: 0, hands: 0, handCrops: 0, other: 0 };
  const detected = { pose: 0, face: 0, hands: 0 };
  let frames = 0;
  const inFlight: Array<Promise<FrameResult>> = [];
  const maxInFlight = pool.threads * IN_FLIGHT_FRAMES_PER_WORKER;

  const take = async (): Promise<FrameObservation> => {
    const { observation, timings } = await inFlight.shift()!;
    frames++;
    for (const k of Object.keys(totals) as Array<keyof ModelTimings>) totals[k] += timings[k];
    if (observation.pose) detected.pose++;
    if (observation.face) detected.face++;
    if (observation.hands.length) detected.hands++;
    return observation;
  };

  try {
    for await (const frame of decodeFrames(input, { fps, width, sourceFps, signal })) {
      const pending = pool.observe(frame);
      pending.catch(() => {}); // awaited in order by take(); avoid an unhandled rejection meanwhile
      inFlight.push(pending);
      // Results come back in submission order because we await the oldest first; the decoder
      // is paused (pipe backpressure) while the queue is full.
      while (inFlight.length >= maxInFlight) yield await take();
    }
    while (inFlight.length) yield await take();
  } finally {
    // On early exit the remaining frames finish in the workers; nobody waits for them.
    inFlight.length = 0;
  }
  const wall_ms = performance.now() - started;
  const per = (v: number) => (frames ? Math.round((v / frames) * 10) / 10 : 0);
  return {
    frames,
    wall_ms: Math.round(wall_ms),
    ms_per_frame: {
      face: per(totals.face),
      pose: per(totals.pose),
      hands: per(totals.hands),
      handCrops: per(totals.handCrops),
      other: per(totals.other),
      total_wall: per(wall_ms),
    },
    detected,
  };
}
