/**
 * @module containers/media/engines/segment/process-segmenter
 * A `Segmenter` whose model runs in a child process (vision_worker.py or segmenter-process.ts)
 * started with `startRecordProcess`: one process per render, killed with it. Calls may overlap:
 * images queue on the child's stdin and their maps come back in order, so a caller can keep the
 * next key frame waiting while the child works (callers bound how many they keep in flight).
 */
import { mediaConfig } from '../../core/config.js';
import { nativeVision } from '../../core/venv.js';
import { startRecordProcess } from '../frame-pipeline/record-process.js';
import {
  MODEL_SIZE,
  SELFIE_SHAPES,
  shapeForVideo,
  type SegmentationModel,
  type Segmenter,
  type SelfieShape,
} from './segmenter.js';

/**
 * From TypeScript source (tsx, vitest) the child needs the tsx loader; a compiled build runs
 * `segmenter-process.js` directly.
 */
function childArgs(model: SegmentationModel): string[] {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = new URL(fromSource ? './segmenter-process.ts' : './segmenter-process.js', import.meta.url)
    .pathname;
  return [...(fromSource ? ['--import', import.meta.resolve('tsx')] : []), entry, model];
}

/**
 * The child for a model: MediaPipe's native selfie segmenter (`python/vision_worker.py segment`,
 * the same model as the TF.js `selfie` at ~5 ms instead of ~23 ms per mask, in a square and a
 * landscape shape) when the environment has it, else the TF.js model in a Node child. Both answer
 * the same way; the native child first reads a line naming its shape.
 */
function segmenterChild(
  model: SegmentationModel,
  allowNative: boolean,
): { native: boolean; bin: string; args: string[] } {
  const native = model === 'selfie' ? nativeVision(undefined, allowNative) : null;
  if (native) return { native: true, bin: native.python, args: [native.script, 'segment'] };
  return { native: false, bin: process.execPath, args: childArgs(model) };
}

/**
 * Starts the segmenter process (the model's runtime loads while the caller decodes its first
 * frames; a native child loads the model of its shape once `fitVideo` or the first image says it).
 * @example using seg = createProcessSegmenter({ model: 'selfie' }); seg.fitVideo?.(1280, 720);
 */
export function createProcessSegmenter({
  model = 'selfie',
  signal,
  landscape = mediaConfig().render.blur.landscapeModel,
  native: allowNative = mediaConfig().core.nativeVision,
}: {
  model?: SegmentationModel;
  signal?: AbortSignal;
  /**
   * Whether a native segmenter takes the landscape shape for wide video (`BLUR_LANDSCAPE_MODEL`,
   * default on; off: always the square one). docs/benchmarks.md has what each costs.
   */
  landscape?: boolean;
  /** The native runtime when the environment has it (`NATIVE_VISION`, default on); off: TF.js. */
  native?: boolean;
} = {}): Segmenter {
  const child = segmenterChild(model, allowNative);
  // A native child is the selfie model, square until `fitVideo` says otherwise.
  let shape: { w: number; h: number } = MODEL_SIZE[model];
  let name = child.native ? 'mediapipe-selfie' : `tfjs-${model}`;
  let fixed = !child.native;
  let answerBytes!: (bytes: number) => void;
  const recordBytes = child.native
    ? new Promise<number>((resolve) => (answerBytes = resolve))
    : shape.w * shape.h;
  const proc = startRecordProcess(child.bin, child.args, {
    recordBytes,
    parse: (bytes) => {
      const p = new Float32Array(bytes.length);
      for (let i = 0; i < bytes.length; i++) p[i] = bytes[i] / 255;
      return p;
    },
    name: 'the segmenter process',
    signal,
  });
  /** Fixes the native child's shape: its header line, then every image at that size. */
  const fix = (chosen: SelfieShape) => {
    if (fixed) return;
    fixed = true;
    shape = SELFIE_SHAPES[chosen];
    if (chosen === 'landscape') name = 'mediapipe-selfie-landscape';
    proc.send(Buffer.from(`${chosen}\n`));
    answerBytes(shape.w * shape.h);
  };
  return {
    get name() {
      return name;
    },
    get inputWidth() {
      return shape.w;
    },
    get inputHeight() {
      return shape.h;
    },
    fitVideo: (width, height) => fix(landscape ? shapeForVideo(width, height) : 'square'),
    segment: (rgb) => {
      fix('square');
      return proc.request(rgb);
    },
    dispose: proc.dispose,
    [Symbol.dispose]: proc.dispose,
  };
}
