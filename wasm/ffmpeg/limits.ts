/**
 * @module
 * The edge decode's budgets and output rate. No imports: the main Worker reads these
 * without bundling ffmpeg.wasm (the decode itself runs in the `edge-audio` Worker).
 */

/** Output sample rate of the edge audio (what Silero VAD and the ASR engines expect). */
export const PCM_SAMPLE_RATE_HZ = 16_000;
/**
 * Default largest input decoded at the edge (a Worker isolate has 128 MB). Peak memory of
 * a call ≈ ffmpeg's wasm heap (32 MiB, measured: it did not grow for a 31 MB 720p video
 * nor for 15 min of mp3, because only audio is decoded) + the input (handed to MEMFS
 * without a copy) + up to 1.125 × the PCM (MEMFS growth slack). The pipeline can set its
 * own budget from the `EDGE_AUDIO_MAX_BYTES` variable through `maxBytes`.
 */
export const EDGE_AUDIO_MAX_BYTES = 32 * 1024 * 1024;
/** Default longest audio decoded at the edge: 10 min of 16 kHz s16 PCM is 19.2 MB. */
export const EDGE_AUDIO_MAX_SEC = 10 * 60;
