/**
 * @module containers/media/engines/vision/human/engine
 * The embedded default vision engine: `@vladmandic/human` on tfjs-wasm, one instance per thread.
 * Implements the combined `VisionEngine` (one tensor upload, all models) and the three
 * single-part ports for callers that need only one.
 */
import type { FrameObservation } from '../../../../../src/contract/media.js';
import type { FaceEngine, HandEngine, ModelTimings, PoseEngine, RgbFrame, VisionEngine } from '../engines.js';
import type { HumanConfigOptions } from './config.js';
import { loadHuman, type HumanInstance, type HumanResult } from './load.js';
import { mapFace, mapHands, mapPose, mapResult } from './mapping.js';

export const HUMAN_ENGINE_NAME = 'human-wasm';

export interface HumanEngine extends VisionEngine, PoseEngine, HandEngine, FaceEngine {}

/**
 * Creates the engine once its models are loaded (cached per thread, see `loadHuman`).
 * @example
 * using engine = await createHumanEngine();
 * const { observation, timings } = await engine.observe({ time: 0, width, height, data });
 */
export async function createHumanEngine(options: HumanConfigOptions = {}): Promise<HumanEngine> {
  const human = await loadHuman(options);
  let disposed = false;

  const run = async (frame: RgbFrame, only?: 'face' | 'body' | 'hand'): Promise<HumanResult> => {
    if (disposed) throw new Error('vision engine is disposed');
    if (frame.data.length !== frame.width * frame.height * 3) {
      throw new Error(`frame at ${frame.time}s has ${frame.data.length} bytes, expected ${frame.width * frame.height * 3}`);
    }
    const input = human.tf.tensor3d(frame.data, [frame.height, frame.width, 3], 'int32');
    try {
      const override = only
        ? { face: { enabled: only === 'face' }, body: { enabled: only === 'body' }, hand: { enabled: only === 'hand' } }
        : { face: { enabled: true }, body: { enabled: true }, hand: { enabled: true } };
      const result = await human.detect(input, override);
      if (result.error) throw new Error(`human: ${result.error}`);
      return result;
    } finally {
      input.dispose();
    }
  };

  const dispose = () => {
    // The models belong to the thread (shared by later jobs); the engine only stops accepting work.
    disposed = true;
  };

  return {
    name: HUMAN_ENGINE_NAME,
    async observe(frame) {
      const start = performance.now();
      const result = await run(frame);
      const total = performance.now() - start;
      const perf = result.performance;
      const timings: ModelTimings = { face: perf.face ?? 0, pose: perf.body ?? 0, hands: perf.hand ?? 0, other: 0 };
      timings.other = Math.max(0, total - timings.face - timings.pose - timings.hands);
      const observation: FrameObservation = mapResult(result, frame.time, frame.width, frame.height);
      return { observation, timings };
    },
    async detectPose(frame) {
      return mapPose((await run(frame, 'body')).body);
    },
    async detectHands(frame) {
      // Sides come from the pose's wrists, so the pose runs too.
      const result = await run(frame);
      return mapHands(result.hand, mapPose(result.body));
    },
    async detectFace(frame) {
      return mapFace((await run(frame, 'face')).face);
    },
    dispose,
    [Symbol.dispose]: dispose,
  };
}

/** Tensors alive in this thread's tfjs engine; tests use it to prove nothing leaks per frame. */
export async function liveTensorCount(options: HumanConfigOptions = {}): Promise<number> {
  const human: HumanInstance = await loadHuman(options);
  return human.tf.memory().numTensors;
}
