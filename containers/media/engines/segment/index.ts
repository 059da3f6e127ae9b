/**
 * @module containers/media/engines/segment
 * Person segmentation for background blur.
 */
export {
  createTfjsSegmenter,
  type Segmenter,
  type SegmentationModel,
  type TfjsSegmenterOptions,
} from './segmenter.js';
export { MaskTracker, type MaskTrackerOptions } from './mask-tracker.js';
export { createProcessSegmenter } from './process-segmenter.js';
export { KeyMaskStream } from './key-mask-stream.js';
export type { KeyMaskOptions } from './key-masks.js';
