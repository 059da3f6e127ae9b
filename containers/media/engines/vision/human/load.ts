/**
 * @module containers/media/engines/vision/human/load
 * Loads `@vladmandic/human` on the tfjs WebAssembly backend in Node, with models read from
 * local files. Once per thread: models are cached in a module-level promise, so every job
 * in a worker reuses them.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { humanConfig, type HumanConfigOptions } from './config.js';

const require = createRequire(import.meta.url);

/**
 * The minimal surface of a Human instance we use (the package's own types drag in DOM
 * declarations we do not compile against).
 */
export interface HumanInstance {
  config: Record<string, unknown>;
  tf: {
    getBackend(): string;
    memory(): { numTensors: number; numBytes: number };
    tensor3d(values: Uint8Array | Int32Array, shape: [number, number, number], dtype: 'int32'): HumanTensor;
    slice(x: HumanTensor, begin: number[], size: number[]): HumanTensor;
    dispose(t: unknown): void;
    env(): { getAsync(flag: string): Promise<unknown> };
  };
  load(): Promise<void>;
  detect(input: HumanTensor, config?: Record<string, unknown>): Promise<HumanResult>;
}
export interface HumanTensor {
  dispose(): void;
}
export interface HumanResult {
  face: Array<{
    score: number;
    box: [number, number, number, number];
    mesh: Array<[number, number, number?]>;
    rotation?: { angle: { roll: number; yaw: number; pitch: number } } | null;
    emotion?: Array<{ score: number; emotion: string }>;
  }>;
  body: Array<{
    score: number;
    keypoints: Array<{ part: string; position: [number, number, number?]; score: number }>;
  }>;
  hand: Array<{
    score: number;
    box: [number, number, number, number];
    keypoints: Array<[number, number, number?]>;
    label: string;
  }>;
  performance: Record<string, number>;
  error: string | null;
}

/**
 * Human's Node + wasm build. It is not reachable through the package's `exports` map (its keys
 * lack the `./` prefix), so resolve it next to the main entry.
 */
const HUMAN_NODE_WASM_ENTRY = path.join(
  path.dirname(require.resolve('@vladmandic/human')),
  'human.node-wasm.js',
);

let fetchPatched = false;

/**
 * Human loads models with the global `fetch`, and Node's fetch rejects `file://`. Wrap it once
 * so `file://` URLs are served from disk and everything else passes through untouched.
 */
export function installFileFetch(): void {
  if (fetchPatched) return;
  fetchPatched = true;
  const networkFetch = globalThis.fetch;
  globalThis.fetch = async function fileAwareFetch(
    input: RequestInfo | URL,
    init?: RequestInit,
  ): Promise<Response> {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith('file://')) return networkFetch(input, init);
    const bytes = await readFile(fileURLToPath(url));
    const type = url.endsWith('.json') ? 'application/json' : 'application/octet-stream';
    return new Response(bytes, { status: 200, headers: { 'content-type': type } });
  };
}

const instances = new Map<string, Promise<HumanInstance>>();

/**
 * Returns this thread's Human instance for the given options, creating and loading it on the
 * first call. Models load once per thread and process, not per job.
 */
export function loadHuman(options: HumanConfigOptions = {}): Promise<HumanInstance> {
  const key = JSON.stringify(options);
  let pending = instances.get(key);
  if (!pending) {
    pending = createHuman(options);
    instances.set(key, pending);
    // A failed load must not be cached forever: the next job retries.
    pending.catch(() => instances.delete(key));
  }
  return pending;
}

/** Model files of this thread's first Human instance (see `createHuman`). */
let threadModels: string | null = null;

async function createHuman(options: HumanConfigOptions): Promise<HumanInstance> {
  installFileFetch();
  const { Human } = require(HUMAN_NODE_WASM_ENTRY) as {
    Human: new (config: Record<string, unknown>) => HumanInstance;
  };
  const config = humanConfig(options);
  // Human keeps each loaded model in its bundle's module scope, shared by every instance of the
  // thread: a second instance asking for another detector would silently run the first one's.
  const models = JSON.stringify([config.modelBasePath, modelPaths(config)]);
  if (threadModels !== null && threadModels !== models) {
    throw new Error(
      `vision: this thread already runs other Human models (${threadModels}); one model set per thread`,
    );
  }
  threadModels = models;
  const human = new Human(config);
  await human.load();
  if (human.tf.getBackend() !== 'wasm') {
    throw new Error(`vision: expected the tfjs wasm backend, got ${human.tf.getBackend()}`);
  }
  return human;
}

/** Every `modelPath` in a Human config, in a stable order. */
function modelPaths(config: unknown): string[] {
  if (!config || typeof config !== 'object') return [];
  return Object.entries(config as Record<string, unknown>).flatMap(([key, value]) =>
    key === 'modelPath' && typeof value === 'string' ? [value] : modelPaths(value),
  );
}
