/**
 * @module
 * Edge WebAssembly for the API Worker (runs in workerd): voice activity detection with
 * Silero VAD (v5 only is bundled), and the client of the `edge-audio` Worker, which runs
 * ffmpeg.wasm behind a service binding (ffmpeg-core.wasm is ~10 MB gzip: it does not fit in
 * the API Worker under Cloudflare's compressed size limit). Nothing here bundles ffmpeg.wasm;
 * the decoder itself is `wasm/ffmpeg/index.js` (imported by `wasm/edge-audio/worker.ts`).
 *
 * The Worker's wrangler.toml needs one module rule, for the Silero model:
 * `[[rules]] type = "Data"  globs = ["**\/*.onnx"]` (`.wasm` is CompiledWasm by default).
 *
 * @example
 * import { detectSpeech, extractWithEdgeAudio } from '../../wasm/index.js';
 * const { pcm, hasAudio } = await extractWithEdgeAudio(env.EDGE_AUDIO, r2Object.body, { size: r2Object.size });
 * const segments = hasAudio ? await detectSpeech(pcm) : [];
 */
export { EDGE_AUDIO_MAX_BYTES, EDGE_AUDIO_MAX_SEC, PCM_SAMPLE_RATE_HZ } from './ffmpeg/limits.js';
export { EdgeBudgetError, MediaDecodeError } from './ffmpeg/errors.js';
export type { ChannelMix, ExtractPcmOptions, PcmAudio } from './ffmpeg/extract-pcm.js';
export { extractWithEdgeAudio, decodeEdgeAudioError } from './edge-audio/rpc.js';
export type { EdgeAudioOptions, EdgeAudioResult, EdgeAudioRpc } from './edge-audio/rpc.js';
export * from './vad/index.js';
