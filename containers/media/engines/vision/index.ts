/**
 * @module containers/media/engines/vision
 * Vision engines of the media container: ports, the embedded Human/tfjs-wasm default, frame
 * sampling, the worker pool and the `/vision` route.
 */
export type { FaceEngine, HandEngine, ModelTimings, PoseEngine, RgbFrame, VisionEngine } from './engines.js';
export { combineEngines } from './engines.js';
export { createHumanEngine, HUMAN_ENGINE_NAME, type HumanEngine } from './human/engine.js';
export {
  wristCrops,
  wristCropBox,
  pickCropHand,
  MAX_WRIST_CROPS_PER_FRAME,
  type WristCrop,
  type HandSource,
} from './hand-crop.js';
export { decodeFrames, PpmStreamParser, DEFAULT_FRAME_WIDTH_PX } from './frames.js';
export {
  VisionPool,
  sharedVisionPool,
  disposeSharedVisionPool,
  defaultThreadCount,
  preloadVision,
} from './pool.js';
export { analyzeVideo, type VisionRunStats, type AnalyzeVideoOptions } from './analyze.js';
export { visionRoutes, VisionRouteError } from './routes.js';
