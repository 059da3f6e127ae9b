/**
 * @module
 * How to run a recurrent VAD over a long recording in batches (opt-in, approximate).
 * onnxruntime-web pays a large fixed cost per `session.run` (a batch of 4 frames costs
 * about what 1 frame does), so frame-by-frame inference is dominated by that cost. We can
 * cut the recording into up to `maxBatch` consecutive chunks and run them side by side as
 * the rows of one batch. Each chunk but the first starts `warmupFrames` early; those
 * outputs are thrown away and only let the recurrent state settle.
 *
 * Why it is not the default: Silero's LSTM state remembers seconds, not frames. Measured on
 * 60 s of speech, a 0.5 s warm-up still flips ~4 % of the per-frame decisions (the segment
 * list changes a little), for a ~2× speed-up in workerd. Sequential (`maxBatch: 1`) is exact.
 */

/** One row of the batch: frames `[start, end)` are fed, outputs of `[keep, end)` are kept. */
export interface ChunkRow {
  start: number;
  keep: number;
  end: number;
}

export interface BatchPlanOptions {
  /** Most rows run side by side. Default 1: the exact sequential run. */
  maxBatch?: number;
  /** Shortest chunk worth its own row (frames). Default 160 (5.1 s of 32 ms frames). */
  minChunkFrames?: number;
  /** Frames fed before a chunk's first kept frame. Default 16 (0.5 s). */
  warmupFrames?: number;
}

/**
 * Splits `frameCount` frames into rows. The number of `session.run` calls is then the
 * longest row, `max(end - start)`.
 *
 * @example
 * planBatches(1875, { maxBatch: 16 }) // 60 s → 11 rows of ≤171 kept frames: 187 runs, not 1875
 */
export function planBatches(frameCount: number, options: BatchPlanOptions = {}): ChunkRow[] {
  const { maxBatch = 1, minChunkFrames = 160, warmupFrames = 16 } = options;
  if (frameCount <= 0) return [];
  const rows = Math.max(1, Math.min(maxBatch, Math.floor(frameCount / minChunkFrames)));
  const chunk = Math.ceil(frameCount / rows);
  const plan: ChunkRow[] = [];
  for (let keep = 0; keep < frameCount; keep += chunk) {
    plan.push({ start: Math.max(0, keep - warmupFrames), keep, end: Math.min(frameCount, keep + chunk) });
  }
  return plan;
}

/** Number of batched runs a plan needs. */
export function stepsOf(plan: readonly ChunkRow[]): number {
  return plan.reduce((max, row) => Math.max(max, row.end - row.start), 0);
}
