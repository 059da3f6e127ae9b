/**
 * @module containers/media/engines/tts
 * Speech synthesis: the embedded engine of generator 0 (the Piper voice en_US-joe-medium, else
 * espeak-ng with a note) and an ElevenLabs-compatible adapter (1).
 */
export { createTtsRoutes, ttsRoutes, type TtsRoutesOptions } from './routes.js';
export type { TtsEngine, SynthesisRequest, SynthesisResult } from './engine.js';
export { createEmbeddedTtsEngine, PIPER_VOICE_DIR_DEFAULT, type EmbeddedTtsOptions } from './embedded.js';
export { createPiperEngine, PIPER_DEFAULT_VOICE, type PiperOptions, type PiperEngine } from './piper.js';
export { createEspeakEngine, type EspeakOptions } from './espeak.js';
export { createElevenLabsEngine, type ElevenLabsOptions } from './elevenlabs.js';
export { normalizeText } from './normalize.js';
export { splitSpeech, type SpeechChunk } from './sentences.js';
export { TtsError } from './errors.js';
export { pcmToWav, parseWav, readProvenance, withProvenance, type SpeechProvenance } from './wav.js';
