/**
 * @module
 * Silero VAD on onnxruntime-web: one speech probability per frame of 16 kHz audio. Two
 * models ship in npm `@ricky0123/vad-web`:
 * - `v5` (default, `silero_vad_v5.onnx`): 512-sample (32 ms) frames, each preceded by the
 *   previous frame's 64-sample tail, state `[2, batch, 128]`, `sr` a scalar; as Silero's
 *   `OnnxWrapper` and vad-web's `models/silero.ts` feed it.
 * - `legacy` (v4, `silero_vad_legacy.onnx`): 1536-sample (96 ms) frames, no context, state
 *   `h`/`c` `[2, batch, 64]`, `sr` of shape [1]; as vad-web's `models/legacy.ts`. About 3×
 *   fewer inference calls for the same audio, so much cheaper in CPU; coarser boundaries.
 * A session is created once per isolate per model; each call carries its own recurrent
 * state, and calls are queued because one wasm instance runs one inference at a time.
 *
 * Only v5 is imported here, so a Worker bundles one model (~2 MB gzip). The legacy model is
 * bundled only by Workers that import `wasm/vad/legacy-model.js` (which registers it).
 */
import { planBatches, stepsOf, type BatchPlanOptions } from './batch-plan.js';
import { INT16_FULL_SCALE } from './level.js';
import type { InferenceSession, Tensor } from 'onnxruntime-web/wasm';

/**
 * onnxruntime-web, its ~14 MB `.wasm` and the model are loaded on the first session: an isolate
 * that never runs VAD (most requests; most Worker test files) does not evaluate them.
 */
const loadOrt = () => import('./ort.js');

/** The only rate the models are fed at here. */
export const SILERO_SAMPLE_RATE_HZ = 16_000;

export type SileroModel = 'v5' | 'legacy';

interface ModelSpec {
  /** Loads the `.onnx` bytes; undefined until registered (legacy: `import 'wasm/vad/legacy-model.js'`). */
  load?: () => Promise<ArrayBuffer>;
  /** New samples per inference frame. */
  frameSamples: number;
  /** Samples of the previous frame prepended to each frame. */
  contextSamples: number;
  /** Recurrent state tensors: input name → output name, and the per-row size [2, rows, width]. */
  state: Record<string, string>;
  stateWidth: number;
  /** Shape of the `sr` input. */
  srShape: number[];
}

const MODELS: Record<SileroModel, ModelSpec> = {
  v5: {
    load: async () => (await import('@ricky0123/vad-web/dist/silero_vad_v5.onnx')).default,
    frameSamples: 512,
    contextSamples: 64,
    state: { state: 'stateN' },
    stateWidth: 128,
    srShape: [],
  },
  legacy: {
    frameSamples: 1536,
    contextSamples: 0,
    state: { h: 'hn', c: 'cn' },
    stateWidth: 64,
    srShape: [1],
  },
};

/**
 * Supplies a model's `.onnx` bytes (an import of the file as a `Data` module). Used by
 * `legacy-model.ts`; keeps models a Worker does not use out of its bundle.
 */
export function registerSileroModel(model: SileroModel, bytes: ArrayBuffer): void {
  MODELS[model].load = async () => bytes;
}

/** Samples per frame of a model (512 for v5, 1536 for legacy). */
export function sileroFrameSamples(model: SileroModel = 'v5'): number {
  return MODELS[model].frameSamples;
}

const sessions = new Map<SileroModel, Promise<InferenceSession>>();
let queue: Promise<unknown> = Promise.resolve();

/** This isolate's session for `model`, created on first use (kept for the isolate's life). */
export function getSileroSession(model: SileroModel = 'v5'): Promise<InferenceSession> {
  let session = sessions.get(model);
  if (!session) {
    const load = MODELS[model].load;
    if (!load) {
      return Promise.reject(
        new Error(`Silero VAD model '${model}' is not bundled: import 'wasm/vad/legacy-model.js' first`),
      );
    }
    session = Promise.all([loadOrt(), load()])
      .then(([{ createWasmSession }, bytes]) =>
        createWasmSession(new Uint8Array(bytes), { graphOptimizationLevel: 'all' }),
      )
      .catch((error: unknown) => {
        sessions.delete(model);
        throw new Error(`Silero VAD (${model}) failed to load`, { cause: error });
      });
    sessions.set(model, session);
  }
  return session;
}

export interface SpeechProbabilityOptions extends BatchPlanOptions {
  /** Which Silero model. Default `'v5'`. */
  model?: SileroModel;
  /** Factor every sample is scaled by (then clipped to full scale) before Silero. Default 1. */
  gain?: number;
}

/**
 * Speech probability of each frame of `samples` (mono, 16 kHz; s16 PCM or floats in
 * [-1, 1]; s16 is scaled frame by frame, so no float copy of the whole audio is made:
 * 15 min would be 58 MB). A final partial frame is zero-padded. Sequential (exact) by
 * default; `{ maxBatch: 16 }` runs long audio as a batch of chunks, faster but
 * approximate (see batch-plan.ts).
 */
export function speechProbabilities(
  samples: Int16Array | Float32Array,
  options: SpeechProbabilityOptions = {},
): Promise<Float32Array> {
  const run = queue.then(() => runBatched(samples, options));
  queue = run.catch(() => undefined); // one failed call must not block the next
  return run;
}

async function runBatched(
  samples: Int16Array | Float32Array,
  options: SpeechProbabilityOptions,
): Promise<Float32Array> {
  const { model = 'v5', gain = 1, ...planOptions } = options;
  const spec = MODELS[model];
  const session = await getSileroSession(model);
  const { ort } = await loadOrt();
  const frameCount = Math.ceil(samples.length / spec.frameSamples);
  const probabilities = new Float32Array(frameCount);
  const plan = planBatches(frameCount, planOptions);
  const rows = plan.length;
  const steps = stepsOf(plan);
  const sr = new ort.Tensor('int64', BigInt64Array.from([BigInt(SILERO_SAMPLE_RATE_HZ)]), spec.srShape);
  let state: Record<string, Tensor> = {};
  for (const name of Object.keys(spec.state)) {
    state[name] = new ort.Tensor('float32', new Float32Array(2 * rows * spec.stateWidth), [
      2,
      rows,
      spec.stateWidth,
    ]);
  }
  const windowLength = spec.contextSamples + spec.frameSamples;
  const batch = new Float32Array(rows * windowLength);
  for (let step = 0; step < steps; step++) {
    for (let row = 0; row < rows; row++) {
      const frame = plan[row].start + step;
      const window = batch.subarray(row * windowLength, (row + 1) * windowLength);
      // Rows shorter than the longest are fed silence after their end; those outputs are ignored.
      if (frame < plan[row].end)
        frameWindow(samples, frame * spec.frameSamples - spec.contextSamples, window, gain);
      else window.fill(0);
    }
    const input = new ort.Tensor('float32', batch, [rows, windowLength]);
    const out = await session.run({ input, sr, ...state });
    const output = out.output.data as Float32Array;
    for (let row = 0; row < rows; row++) {
      const frame = plan[row].start + step;
      if (frame >= plan[row].keep && frame < plan[row].end) probabilities[frame] = output[row];
    }
    const next: Record<string, Tensor> = {};
    for (const [name, outName] of Object.entries(spec.state)) {
      state[name].dispose();
      next[name] = out[outName] as Tensor;
    }
    state = next;
    out.output.dispose();
  }
  for (const tensor of Object.values(state)) tensor.dispose();
  return probabilities;
}

/**
 * Fills `window` with the samples from `from` on (the frame with its context before it),
 * scaled by `gain` and clipped to [-1, 1], zeros before the start and past the end of the audio.
 */
function frameWindow(
  samples: Int16Array | Float32Array,
  from: number,
  window: Float32Array,
  gain: number,
): void {
  const clippedFrom = Math.max(0, from);
  const to = Math.min(samples.length, from + window.length);
  window.fill(0);
  if (to <= clippedFrom) return;
  if (samples instanceof Float32Array && gain === 1) {
    window.set(samples.subarray(clippedFrom, to), clippedFrom - from);
    return;
  }
  const scale = samples instanceof Float32Array ? gain : gain / INT16_FULL_SCALE;
  for (let i = clippedFrom; i < to; i++) window[i - from] = Math.max(-1, Math.min(1, samples[i] * scale));
}
