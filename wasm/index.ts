/**
 * @module
 * Edge WebAssembly steps for the pipeline's queue consumer (runs in workerd):
 * audio extraction with ffmpeg.wasm and voice activity detection with Silero VAD.
 *
 * The Worker's wrangler.toml needs one module rule, for the Silero model:
 * `[[rules]] type = "Data"  globs = ["**\/*.onnx"]` (`.wasm` is CompiledWasm by default).
 *
 * @example
 * import { extractPcm16k, detectSpeech } from '../../wasm/index.js';
 * const { pcm, hasAudio } = await extractPcm16k(bytes);
 * const segments = hasAudio ? await detectSpeech(pcm) : [];
 */
export * from './ffmpeg/index.js';
export * from './vad/index.js';
