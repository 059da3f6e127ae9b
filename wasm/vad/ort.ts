/**
 * @module
 * onnxruntime-web's WebAssembly backend inside workerd: one thread, no proxy worker, and
 * the `.wasm` imported as a compiled module (workerd refuses to compile from bytes).
 *
 * onnxruntime-web has no hook to hand it a compiled module: it either fetches the `.wasm`
 * or calls `WebAssembly.instantiate(bytes, imports)` on `env.wasm.wasmBinary`. So we give
 * it a few marker bytes as `wasmBinary` and, while the backend starts, answer the
 * `instantiate` call that carries exactly those bytes with an instance of the imported
 * module. Every other call goes to the real `WebAssembly.instantiate` untouched.
 */
import * as ort from 'onnxruntime-web/wasm';
import ortWasm from 'onnxruntime-web/ort-wasm-simd-threaded.wasm';

export { ort };

/** Bytes that are not WebAssembly (no `\0asm` magic), so they can never be a real module. */
const MARKER_BYTES = new TextEncoder().encode('workerd:onnxruntime-web:compiled-module');

type Instantiate = typeof WebAssembly.instantiate;

function isMarker(source: unknown): boolean {
  const bytes = ArrayBuffer.isView(source)
    ? new Uint8Array(source.buffer, source.byteOffset, source.byteLength)
    : source instanceof ArrayBuffer
      ? new Uint8Array(source)
      : undefined;
  return (
    bytes !== undefined &&
    bytes.length === MARKER_BYTES.length &&
    bytes.every((b, i) => b === MARKER_BYTES[i])
  );
}

/**
 * Creates an inference session for `model` on the wasm backend. The first call starts the
 * backend (compiled-module trick above); later calls reuse it.
 */
export async function createWasmSession(
  model: Uint8Array,
  options: ort.InferenceSession.SessionOptions = {},
): Promise<ort.InferenceSession> {
  ort.env.wasm.numThreads = 1; // no SharedArrayBuffer workers in workerd
  ort.env.wasm.proxy = false; // no Web Worker either
  ort.env.wasm.wasmBinary = MARKER_BYTES;
  ort.env.logLevel = 'error';
  const original: Instantiate = WebAssembly.instantiate;
  const patched = async function instantiateImportedOrtModule(
    source: unknown,
    imports?: WebAssembly.Imports,
  ) {
    if (!isMarker(source))
      return (original as (s: unknown, i?: WebAssembly.Imports) => Promise<unknown>)(source, imports);
    const instance = new WebAssembly.Instance(ortWasm, imports);
    return { instance, module: ortWasm };
  };
  WebAssembly.instantiate = patched as Instantiate;
  try {
    return await ort.InferenceSession.create(model, { executionProviders: ['wasm'], ...options });
  } finally {
    if (WebAssembly.instantiate === (patched as Instantiate)) WebAssembly.instantiate = original;
  }
}
