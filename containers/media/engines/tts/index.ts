/**
 * @module containers/media/engines/tts
 * Speech synthesis: embedded espeak-ng (generator 0) and an ElevenLabs-compatible adapter (1).
 */
export { createTtsRoutes, ttsRoutes, type TtsRoutesOptions } from './routes.js';
export type { TtsEngine, SynthesisRequest, SynthesisResult } from './engine.js';
export { createEspeakEngine, type EspeakOptions } from './espeak.js';
export { createElevenLabsEngine, elevenLabsOptionsFromEnv, type ElevenLabsOptions } from './elevenlabs.js';
export { TtsError } from './errors.js';
export { pcmToWav, parseWav } from './wav.js';
