/**
 * @module
 * Ambient types for the binary modules `wasm/` imports. Wrangler turns a `.wasm` import
 * into a compiled `WebAssembly.Module` (rule `CompiledWasm`, on by default) and an `.onnx`
 * import into an `ArrayBuffer` (rule `Data`, which the Worker's wrangler.toml must declare).
 */

declare module '*.wasm' {
  const module: WebAssembly.Module;
  export default module;
}

declare module '*.onnx' {
  const bytes: ArrayBuffer;
  export default bytes;
}

declare module '@ffmpeg/core' {
  /** The emscripten module of ffmpeg.wasm 0.12 (only the members `wasm/ffmpeg` uses). */
  export interface FFmpegCoreModule {
    /** Runs `ffmpeg -nostdin -y ...args`; returns ffmpeg's exit code. */
    exec(...args: string[]): number;
    /** Clears the exit code and timeout left by the previous `exec`. */
    reset(): void;
    setLogger(logger: (entry: { type: 'stdout' | 'stderr'; message: string }) => void): void;
    FS: {
      writeFile(path: string, data: Uint8Array, opts?: { canOwn?: boolean }): void;
      readFile(path: string): Uint8Array;
      unlink(path: string): void;
      analyzePath(path: string): { exists: boolean };
      lookupPath(path: string): { node: { contents: Uint8Array | null; usedBytes: number } };
    };
    /** The wasm linear memory's current byte views (grows, never shrinks). */
    HEAPU8: Uint8Array;
  }
  export interface FFmpegCoreOptions {
    instantiateWasm?: (
      imports: WebAssembly.Imports,
      receiveInstance: (instance: WebAssembly.Instance, module?: WebAssembly.Module) => unknown,
    ) => unknown;
    locateFile?: (path: string, prefix: string) => string;
    print?: (message: string) => void;
    printErr?: (message: string) => void;
  }
  const createFFmpegCore: (options?: FFmpegCoreOptions) => Promise<FFmpegCoreModule>;
  export default createFFmpegCore;
}
