/**
 * @module
 * Loads ffmpeg.wasm 0.12 (`@ffmpeg/core`, the single-threaded emscripten build) inside
 * workerd. workerd refuses to compile WebAssembly from bytes, so the `.wasm` is imported
 * as a module (wrangler's default `CompiledWasm` rule) and handed to emscripten through
 * `instantiateWasm`; nothing is fetched. One core per isolate, created on first use and
 * dropped after a failure (an emscripten abort can leave the runtime unusable).
 */
import createFFmpegCore, { type FFmpegCoreModule } from '@ffmpeg/core';
// A path, not the package's `@ffmpeg/core/wasm` export: wrangler picks the module rule by
// the import specifier, so it must end in `.wasm` (and the package exports no such subpath).
import ffmpegWasm from '../../node_modules/@ffmpeg/core/dist/esm/ffmpeg-core.wasm';

export type { FFmpegCoreModule };

/** Where emscripten thinks the script lives; only used to build URLs it never fetches. */
const FAKE_SCRIPT_URL = 'file:///wasm/ffmpeg-core.js';

let corePromise: Promise<FFmpegCoreModule> | undefined;

/**
 * Returns this isolate's ffmpeg core, instantiating it on first call (~32 MB of wasm
 * memory to start, growing with the input).
 */
export function getFFmpegCore(): Promise<FFmpegCoreModule> {
  corePromise ??= instantiateCore().catch((error: unknown) => {
    corePromise = undefined;
    throw new Error('ffmpeg.wasm failed to start', { cause: error });
  });
  return corePromise;
}

/** Forgets the cached core so the next call starts a fresh one (after an abort). */
export function discardFFmpegCore(): void {
  corePromise = undefined;
}

async function instantiateCore(): Promise<FFmpegCoreModule> {
  // The emscripten glue is built for a Web Worker and reads `self.location.href` while it
  // starts; workerd has `self` but no `location`. Lend it one for the synchronous start.
  const scope = globalThis as { location?: unknown };
  const lent = scope.location === undefined;
  if (lent) scope.location = { href: FAKE_SCRIPT_URL };
  let ready: Promise<FFmpegCoreModule>;
  try {
    ready = createFFmpegCore({
      locateFile: (path) => path,
      instantiateWasm(imports, receiveInstance) {
        // The synchronous constructor is fine here: the module is already compiled.
        receiveInstance(new WebAssembly.Instance(ffmpegWasm, imports), ffmpegWasm);
        return {};
      },
    });
  } finally {
    if (lent) delete scope.location;
  }
  return ready;
}
