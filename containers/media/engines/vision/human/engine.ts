/**
 * @module containers/media/engines/vision/human/engine
 * The embedded default vision engine: `@vladmandic/human` on tfjs-wasm, one instance per thread.
 * Implements the combined `VisionEngine` (one tensor upload, all models) and the three
 * single-part ports for callers that need only one.
 */
import type { FrameObservation } from '../../../../../src/contract/media.js';
import type { FaceEngine, HandEngine, ModelTimings, PoseEngine, RgbFrame, VisionEngine } from '../engines.js';
import { headCrop } from '../face-crop.js';
import { handPassWanted, pickCropHand, wristCrops, type CropBox, type WristCrop } from '../hand-crop.js';
import { mediaConfig } from '../../../core/config.js';
import { FACE_REDETECT_EVERY_FRAMES, type HumanConfigOptions } from './config.js';
import { loadHuman, type HumanInstance, type HumanResult, type HumanTensor } from './load.js';
import { facesFromCrop, handsFromCrop, mapFace, mapHands, mapPose } from './mapping.js';

export const HUMAN_ENGINE_NAME = 'human-wasm';

/** Human config override for a hand-only pass (merged into, and persisted in, the instance's config). */
const HAND_ONLY = { face: { enabled: false }, body: { enabled: false }, hand: { enabled: true } } as const;
const ALL_PARTS = { face: { enabled: true }, body: { enabled: true }, hand: { enabled: true } } as const;
/** The first pass of `observe`: the hand model waits for the pose to say whether a wrist is in view. */
const FACE_AND_BODY = { face: { enabled: true }, body: { enabled: true }, hand: { enabled: false } } as const;
const FACE_ONLY = { face: { enabled: true }, body: { enabled: false }, hand: { enabled: false } } as const;
/** Every pass runs every model it enables (Human's frame-to-frame caches off) unless it says otherwise. */
const UNTRACKED = { cacheSensitivity: 0 } as const;
/**
 * Face tracking (the MediaPipe way): the face detector runs on one frame, and the next frames
 * of the same worker cut the face mesh's input from the box of the previous frame's mesh. Human
 * only allows this when `cacheSensitivity` says the image "did not change"; ours must hold
 * whatever the motion (the mesh's own confidence is the check, below), so the threshold is out
 * of reach and only the detector's `skipFrames` bounds how long a track lives.
 */
const FACE_TRACKED = {
  cacheSensitivity: 1e9,
  face: { detector: { skipFrames: FACE_REDETECT_EVERY_FRAMES - 1, skipTime: Number.MAX_SAFE_INTEGER } },
} as const;

export interface HumanEngine extends VisionEngine, PoseEngine, HandEngine, FaceEngine {}

/**
 * Creates the engine once its models are loaded (cached per thread, see `loadHuman`).
 * @example
 * using engine = await createHumanEngine();
 * const { observation, timings } = await engine.observe({ time: 0, width, height, data });
 */
export async function createHumanEngine(options: HumanConfigOptions = {}): Promise<HumanEngine> {
  const { vision } = mediaConfig();
  const {
    wristCrops: useWristCrops = vision.wristCrops,
    handsWhen = vision.hands,
    faceTracking = vision.faceTracking,
    faceCrops = vision.faceCrops,
    closeupHands = vision.closeupHands,
    edgeWristsEveryNth = vision.edgeWristsEveryNth,
  } = options;
  const human = await loadHuman(options);
  let disposed = false;
  /** Whether this thread's previous `observe` found a face: only then can a track have been followed. */
  let tracking = false;

  const detect = async (input: HumanTensor, override: Record<string, unknown>): Promise<HumanResult> => {
    // Human merges an override into its config for good: every pass states its caching.
    const result = await human.detect(input, { ...UNTRACKED, ...override });
    if (result.error) throw new Error(`human: ${result.error}`);
    return result;
  };

  /** Runs `fn` on the frame's tensor, disposed afterwards whatever happens. */
  const withFrame = async <T>(frame: RgbFrame, fn: (input: HumanTensor) => Promise<T>): Promise<T> => {
    if (disposed) throw new Error('vision engine is disposed');
    if (frame.data.length !== frame.width * frame.height * 3) {
      throw new Error(
        `frame at ${frame.time}s has ${frame.data.length} bytes, expected ${frame.width * frame.height * 3}`,
      );
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
      detect(
        input,
        only
          ? {
              face: { enabled: only === 'face' },
              body: { enabled: only === 'body' },
              hand: { enabled: only === 'hand' },
            }
          : ALL_PARTS,
      ),
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

  /** The face Human finds on a crop around the head, in frame pixels (see `../face-crop.ts`). */
  const faceInCrop = async (input: HumanTensor, crop: CropBox) => {
    const sub = human.tf.slice(input, [crop.y, crop.x, 0], [crop.size, crop.size, 3]);
    try {
      const result = await detect(sub, FACE_ONLY);
      return { face: mapFace(facesFromCrop(result.face, crop)), ms: result.performance.face ?? 0 };
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
        const result = await detect(
          input,
          faceTracking
            ? { ...FACE_AND_BODY, ...FACE_TRACKED, face: { ...FACE_AND_BODY.face, ...FACE_TRACKED.face } }
            : FACE_AND_BODY,
        );
        // `result.performance` is the instance's own object: read it before the next pass.
        const perf = result.performance;
        const timings: ModelTimings = {
          face: perf.face ?? 0,
          pose: perf.body ?? 0,
          hands: 0,
          handCrops: 0,
          other: 0,
        };
        let face = mapFace(result.face);
        if (!face && tracking) {
          // The track was lost (the mesh on last frame's box was not confident): the detector
          // looks at the whole frame before this frame is called faceless.
          const again = await detect(input, FACE_ONLY);
          timings.face += again.performance.face ?? 0;
          face = mapFace(again.face);
        }
        const pose = mapPose(result.body);
        const head = !face && faceCrops ? headCrop(pose, frame.width, frame.height) : null;
        if (head) {
          // A face too small for the detector on the whole frame (a full-body shot) fills a
          // crop around the head the pose found.
          const again = await faceInCrop(input, head);
          timings.face += again.ms;
          face = again.face;
        }
        tracking = faceTracking && face !== null;
        const observation: FrameObservation = {
          time: frame.time,
          width: frame.width,
          height: frame.height,
          pose,
          hands: [],
          face,
        };
        // Hands are kept next to a visible wrist (`judgeHand`) or, with neither wrist nor face in
        // view, as close-ups (`judgeCloseupHand`): elsewhere the hand model (the costliest of
        // all) is not run at all.
        const searchHands =
          handsWhen === 'always' ||
          handPassWanted(pose, face, frame.height, {
            closeups: closeupHands,
            sampleIndex: frame.index,
            edgeEveryNth: edgeWristsEveryNth,
          });
        if (searchHands) {
          const handResult = await detect(input, HAND_ONLY);
          timings.hands = handResult.performance.hand ?? 0;
          observation.hands = mapHands(handResult.hand, pose);
        }
        if (searchHands && useWristCrops) {
          const cropStart = performance.now();
          // Crops are chosen from the full-frame pass only: a hand found in one crop does not
          // change which wrists the other crop is for.
          for (const crop of wristCrops(observation)) {
            const hand = pickCropHand(await handsInCrop(input, crop, observation.pose), crop, observation);
            if (hand) observation.hands.push(hand);
          }
          timings.handCrops = performance.now() - cropStart;
        }
        timings.other = Math.max(
          0,
          performance.now() - start - timings.face - timings.pose - timings.hands - timings.handCrops,
        );
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
