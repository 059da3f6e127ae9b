/**
 * @module containers/media/engines/asr
 * Speech recognition in the media container: the `AsrEngine` port and its factory, the
 * Whisper default (faster-whisper), the pocketsphinx fallback, soundswallower forced alignment
 * (with hesitation counting) and the routes.
 */
export { createAsrEngine, FallbackAsrEngine, fallbackWarning } from './engine.js';
export type { AsrEngine, AsrEngineKind, AsrRunStats, TranscribeOptions } from './engine.js';
export { PocketsphinxEngine, PS_TUNED_PARAMS, type PocketsphinxOptions } from './pocketsphinx.js';
export {
  FasterWhisperEngine,
  DISFLUENT_PROMPT,
  keptWords,
  type FasterWhisperOptions,
} from './faster-whisper.js';
export { alignWithFillers } from './align-fillers.js';
export { alignDecoder } from './align-decoder.js';
export {
  cutRepeatLoops,
  isDecodingLoop,
  isHallucinatedSegment,
  isHeardRepetition,
} from './whisper-filter.js';
export { alignText, alignTokens } from './align.js';
export { asrRoutes, createAsrRoutes, type AsrRoutesOptions } from './routes.js';
export {
  AsrError,
  AsrInputError,
  AsrModelError,
  AsrEngineError,
  AsrDecodeError,
  AsrAbortedError,
  type AsrErrorCode,
} from './errors.js';
export { ASR_SAMPLE_RATE_HZ, pcmFromBytes } from './pcm.js';
export { planUtterances, partitionUtterances, validateSegments } from './segments.js';
