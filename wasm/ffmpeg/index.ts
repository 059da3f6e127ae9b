/**
 * @module
 * Edge audio extraction with ffmpeg.wasm: any common container/codec → 16 kHz mono PCM.
 */
export {
  extractPcm16k,
  decodeArgs,
  EDGE_AUDIO_MAX_BYTES,
  EDGE_AUDIO_MAX_SEC,
  PCM_SAMPLE_RATE_HZ,
} from './extract-pcm.js';
export type { ChannelMix, ExtractPcmOptions, PcmAudio } from './extract-pcm.js';
export { EdgeBudgetError, MediaDecodeError } from './errors.js';
export { parseInputStreams, type InputStreams } from './probe-log.js';
export { getFFmpegCore, discardFFmpegCore } from './core.js';
export { warmUpFFmpeg, silentWav } from './warm-up.js';
