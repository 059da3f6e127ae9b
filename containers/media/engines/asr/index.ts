/**
 * @module containers/media/engines/asr
 * Speech recognition in the media container: the `AsrEngine` port and its factory, the
 * pocketsphinx default, the whisper.cpp adapter, soundswallower forced alignment and the routes.
 */
export { createAsrEngine, DEFAULT_ASR_WORKERS } from './engine.js';
export type { AsrEngine, AsrEngineConfig, AsrEngineKind, AsrRunStats, TranscribeOptions } from './engine.js';
export { PocketsphinxEngine, PS_TUNED_PARAMS, type PocketsphinxOptions } from './pocketsphinx.js';
export { WhisperEngine, loadWhisperModel, type WhisperOptions } from './whisper.js';
export { alignText, alignTokens } from './align.js';
export { asrRoutes, createAsrRoutes, SPEECH_SEGMENTS_HEADER, type AsrRoutesOptions } from './routes.js';
export { AsrError, AsrInputError, AsrModelError, AsrEngineError, AsrAbortedError, type AsrErrorCode } from './errors.js';
export { ASR_SAMPLE_RATE_HZ, pcmFromBytes } from './pcm.js';
export { planUtterances, partitionUtterances, validateSegments } from './segments.js';
