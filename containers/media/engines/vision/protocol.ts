/**
 * @module containers/media/engines/vision/protocol
 * Messages between `VisionPool` and its worker threads.
 */
import type { FrameObservation } from '../../../../src/contract/media.js';
import type { ModelTimings, RgbFrame } from './engines.js';

export type WorkerRequest = { type: 'frame'; id: number; frame: RgbFrame } | { type: 'close' };

export type WorkerReply =
  | { type: 'ready' }
  | { type: 'fatal'; message: string }
  | { type: 'result'; id: number; observation: FrameObservation; timings: ModelTimings }
  | { type: 'error'; id: number; message: string };
