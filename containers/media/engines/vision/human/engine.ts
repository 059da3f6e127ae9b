/**
 * @module containers/media/engines/vision/human/engine
 * The embedded default vision engine: `@vladmandic/human` on tfjs-wasm, one instance per thread.
 * Implements the combined `VisionEngine` (one tensor upload, all models) and the three
 * single-part ports for callers that need only one.
 */
import type { FrameObservation } from '../../../../../src/contract/media.js';
import type { FaceEngine, HandEngine, ModelTimings, PoseEngine, RgbFrame, VisionEngine } from '../engines.js';
import { pickCropHand, wristCrops, type WristCrop } from '../hand-crop.js';
import type { HumanConfigOptions } from './config.js';
import { loadHuman, type HumanInstance, type HumanResult, type HumanTensor } from './load.js';
import { handsFromCrop, mapFace, mapHands, mapPose, mapResult } from './mapping.js';

export const HUMAN_ENGINE_NAME = 'human-wasm';

/** Human config override for a hand-only pass (merged into, and persisted in, the instance's config). */
const HAND_ONLY = { face: { enabled: false }, body: { enabled: false }, hand: { enabled: true } } as const;
const ALL_PARTS = { face: { enabled: true }, body: { enabled: true }, hand: { enabled: true } } as const;

export interface HumanEngine extends VisionEngine, PoseEngine, HandEngine, FaceEngine {}

/**
 * Creates the engine once its models are loaded (cached per thread, see `loadHuman`).
 * @example
 * using engine = await createHumanEngine();
 * const { observation, timings } = await engine.observe({ time: 0, width, height, data });
 */
export async function createHumanEngine(options: HumanConfigOptions = {}): Promise<HumanEngine> {
  const { wristCrops: useWristCrops = process.env.VISION_WRIST_CROPS !== '0' } = options;
  const human = await loadHuman(options);
  let disposed = false;

  const detect = async (input: HumanTensor, override: Record<string, unknown>): Promise<HumanResult> => {
    const result = await human.detect(input, override);
    if (result.error) throw new Error(`human: ${result.error}`);
    return result;
  };

  /** Runs `fn` on the frame's tensor, disposed afterwards whatever happens. */
  const withFrame = async <T>(frame: RgbFrame, fn: (input: HumanTensor) => Promise<T>): Promise<T> => {
    if (disposed) throw new Error('vision engine is disposed');
    if (frame.data.length !== frame.width * frame.height * 3) {
      throw new Error(`frame at ${frame.time}s has ${frame.data.length} bytes, expected ${frame.width * frame.height * 3}`);
    }
    const input = human.tf.tensor3d(frame.data, [frame.height, frame.width, 3], 'int32');
    try {
      return await fn(input);
    } finally {
      input.dispose();
    }
  };

  const run = (frame: RgbFrame, only?: 'face' | 'body' | 'hand'): Promise<HumanResult> =>
    withFrame(frame, (input) =>
      detect(input, only ? { face: { enabled: only === 'face' }, body: { enabled: only === 'body' }, hand: { enabled: only === 'hand' } } : ALL_PARTS),
    );

  /**
   * Hands Human finds on one wrist crop, in frame pixels, sides from the pose. The crop goes in
   * at its own size: handtrack resizes every input to its fixed 320×320 anyway, so what the crop
   * gains is that the hand fills a large part of that input, undistorted (a square crop).
   * Measured on 2 shared cores: ≈ 200 ms for the detector whatever the input size, plus ≈ 50 ms
   * for the landmarks of each hand found.
   */
  const handsInCrop = async (input: HumanTensor, crop: WristCrop, pose: FrameObservation['pose']) => {
    const sub = human.tf.slice(input, [crop.y, crop.x, 0], [crop.size, crop.size, 3]);
    try {
      const result = await detect(sub, HAND_ONLY);
      return mapHands(handsFromCrop(result.hand, crop), pose);
    } finally {
      sub.dispose();
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
      return withFrame(frame, async (input) => {
        const result = await detect(input, ALL_PARTS);
        // `result.performance` is the instance's own object: read it before the next pass.
        const perf = result.performance;
        const timings: ModelTimings = { face: perf.face ?? 0, pose: perf.body ?? 0, hands: perf.hand ?? 0, handCrops: 0, other: 0 };
        const observation: FrameObservation = mapResult(result, frame.time, frame.width, frame.height);
        if (useWristCrops) {
          const cropStart = performance.now();
          // Crops are chosen from the full-frame pass only: a hand found in one crop does not
          // change which wrists the other crop is for.
          for (const crop of wristCrops(observation)) {
            const hand = pickCropHand(await handsInCrop(input, crop, observation.pose), crop, observation);
            if (hand) observation.hands.push(hand);
          }
          timings.handCrops = performance.now() - cropStart;
        }
        timings.other = Math.max(0, performance.now() - start - timings.face - timings.pose - timings.hands - timings.handCrops);
        return { observation, timings };
      });
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
