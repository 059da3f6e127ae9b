/**
 * @module containers/media/engines/segment/process-segmenter
 * A `Segmenter` whose model runs in a child process (vision_worker.py or segmenter-process.ts)
 * started with `startRecordProcess`: one process per render, killed with it. Calls may overlap:
 * images queue on the child's stdin and their maps come back in order, so a caller can keep the
 * next key frame waiting while the child works (callers bound how many they keep in flight).
 */
import { nativeVision } from '../../src/venv.js';
import { startRecordProcess } from '../frame-pipeline/record-process.js';
import { MODEL_SIZE, type SegmentationModel, type Segmenter } from './segmenter.js';

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
 * the same model as the TF.js `selfie` at ~5 ms instead of ~23 ms per mask) when the environment
 * has it, else the TF.js model in a Node child. Both speak the same contract.
 */
function segmenterChild(model: SegmentationModel): { name: string; bin: string; args: string[] } {
  const native = model === 'selfie' ? nativeVision() : null;
  if (native) return { name: 'mediapipe-selfie', bin: native.python, args: [native.script, 'segment'] };
  return { name: `tfjs-${model}`, bin: process.execPath, args: childArgs(model) };
}

/**
 * Starts the segmenter process (the model loads while the caller decodes its first frames).
 * @example using seg = createProcessSegmenter({ model: 'selfie' }); const p = await seg.segment(rgb256);
 */
export function createProcessSegmenter({
  model = 'selfie',
  signal,
}: { model?: SegmentationModel; signal?: AbortSignal } = {}): Segmenter {
  const { w, h } = MODEL_SIZE[model];
  const child = segmenterChild(model);
  const proc = startRecordProcess(child.bin, child.args, {
    recordBytes: w * h,
    parse: (bytes) => {
      const p = new Float32Array(bytes.length);
      for (let i = 0; i < bytes.length; i++) p[i] = bytes[i] / 255;
      return p;
    },
    name: 'the segmenter process',
    signal,
  });
  return {
    name: child.name,
    inputWidth: w,
    inputHeight: h,
    segment: (rgb) => proc.request(rgb),
    dispose: proc.dispose,
    [Symbol.dispose]: proc.dispose,
  };
}
