/**
 * @module containers/media/engines/tts/embedded
 * The engine of voice_generator 0: the neural Piper voice when it is installed (the setup and
 * the Docker image put it in `.venv/models/`, verified), else espeak-ng. A fallback is never
 * silent: the result's `notes` say why espeak-ng spoke, and the render report repeats them.
 * An explicit espeak-ng voice name in `voice_id` (e.g. `en-gb+f3`) still selects espeak-ng.
 * A text in another language than English (`text-language.ts`) is spoken by espeak-ng's voice of
 * that language: the neural voice is English and reads any text with English sounds.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { mediaConfig } from '../../core/config.js';
import { venvModelDir } from '../../core/venv.js';
import type { SynthesisRequest, SynthesisResult, SynthesisStream, TtsEngine } from './engine.js';
import { TtsError } from './errors.js';
import { createEspeakEngine, type EspeakOptions } from './espeak.js';
import { espeakVoiceOf, languageName, unspeakableBecause } from './espeak-voices.js';
import { normalizeText } from './normalize.js';
import { createPiperEngine, loadPiperVoice, PIPER_DEFAULT_VOICE, type PiperOptions } from './piper.js';
import { textLanguage } from './text-language.js';
import { parseWav } from './wav.js';

/** Where install_models.py puts the verified voice: `<repo>/.venv/models/piper-en_US-joe-medium`. */
export const PIPER_VOICE_DIR_DEFAULT = venvModelDir(`piper-${PIPER_DEFAULT_VOICE}`);

/** The Piper voice's directory: `PIPER_VOICE_DIR`, else the installed one. */
const configuredVoiceDir = () => mediaConfig().tts.piperVoiceDir ?? PIPER_VOICE_DIR_DEFAULT;

/** Both files of `voice` (model and config) are in `voiceDir`. */
const voiceInstalled = (voiceDir: string, voice: string) =>
  existsSync(join(voiceDir, `${voice}.onnx`)) && existsSync(join(voiceDir, `${voice}.onnx.json`));

export interface EmbeddedTtsOptions {
  /** Directory of the Piper voice. Default env PIPER_VOICE_DIR, else `PIPER_VOICE_DIR_DEFAULT`. */
  voiceDir?: string;
  piper?: Omit<PiperOptions, 'voiceDir'>;
  espeak?: EspeakOptions;
}

/** Names that select the neural voice (a request without voice_id does too). */
const PIPER_NAMES = new Set(['default', 'piper', PIPER_DEFAULT_VOICE]);

/**
 * @example const tts = createEmbeddedTtsEngine(); // piper if installed, else espeak-ng + note
 */
export function createEmbeddedTtsEngine({
  voiceDir = configuredVoiceDir(),
  piper: piperOptions,
  espeak: espeakOptions,
}: EmbeddedTtsOptions = {}): TtsEngine {
  const espeak = createEspeakEngine(espeakOptions);
  const voice = piperOptions?.voice ?? PIPER_DEFAULT_VOICE;
  const piper = createPiperEngine({ ...piperOptions, voiceDir });
  const fallback = async (req: SynthesisRequest, why: string): Promise<SynthesisResult> => {
    const result = await espeak.synthesize({ ...req, text: normalizeText(req.text), voiceId: undefined });
    return {
      ...result,
      notes: [
        ...(result.notes ?? []),
        `voice_generator 0: the neural voice ${voice} ${why}; espeak-ng (${result.voiceId}) spoke instead`,
      ],
    };
  };
  /** espeak-ng's `voiceId` speaks the text in `language` as it is (the normalisation is English's), with a note. */
  const inLanguage = async (
    req: SynthesisRequest,
    language: string,
    voiceId: string,
  ): Promise<SynthesisResult> => {
    const result = await espeak.synthesize({ ...req, voiceId });
    const note = `voice_generator 0: the text is in ${languageName(language)}, which the neural voice ${voice} (English) does not speak; espeak-ng (${result.voiceId}) spoke it`;
    return { ...result, notes: [...(result.notes ?? []), note] };
  };
  /**
   * The Piper voice by `viaPiper`, else espeak-ng: asked for by name, for a text in another
   * language, or the fallback (with its note).
   */
  async function speak<T extends { notes?: string[] }>(
    req: SynthesisRequest,
    viaPiper: () => Promise<T>,
    viaEspeak: (result: Promise<SynthesisResult>) => Promise<T>,
  ): Promise<T> {
    // Both voices say the same words, so the caption aligner (which normalises too) fits either.
    if (req.voiceId && !PIPER_NAMES.has(req.voiceId))
      return viaEspeak(espeak.synthesize({ ...req, text: normalizeText(req.text) }));
    const language = await textLanguage(req.text);
    const own = language && espeakVoiceOf(language);
    if (language && own) {
      const refusal = unspeakableBecause(language, req.text);
      if (refusal) throw new TtsError('tts_text_unspeakable', refusal, 422);
      return viaEspeak(inLanguage(req, language, own));
    }
    const spoken = await inEnglish(req, viaPiper, viaEspeak);
    if (!language) return spoken;
    const note = `voice_generator 0: the text looks like ${languageName(language)}, which no installed voice speaks; the English voice read it`;
    return { ...spoken, notes: [...(spoken.notes ?? []), note] };
  }
  /** The Piper voice, else the espeak-ng fallback with its note. */
  async function inEnglish<T>(
    req: SynthesisRequest,
    viaPiper: () => Promise<T>,
    viaEspeak: (result: Promise<SynthesisResult>) => Promise<T>,
  ): Promise<T> {
    // Checked per request: installing the voice later needs no restart.
    if (!voiceInstalled(voiceDir, voice)) {
      return viaEspeak(fallback(req, `is not installed (${voiceDir}; run the setup or rebuild the image)`));
    }
    try {
      return await viaPiper();
    } catch (err) {
      if (err instanceof TtsError && err.code === 'tts_voice_unavailable')
        return viaEspeak(fallback(req, `could not be loaded (${err.message})`));
      throw err;
    }
  }
  return {
    name: 'embedded',
    synthesize: (req) =>
      speak(
        req,
        () => piper.synthesize(req),
        (result) => result,
      ),
    synthesizeStream: (req) =>
      speak(
        req,
        () => piper.synthesizeStream(req),
        async (result) => wholeAsStream(await result),
      ),
  };
}

/** Pure: a finished result as a one-piece stream (espeak-ng speaks a whole text in one process). */
export function wholeAsStream({
  wav,
  sampleRateHz,
  engine,
  voiceId,
  notes,
}: SynthesisResult): SynthesisStream {
  const info = parseWav(wav);
  const pcm = new Int16Array(
    wav.buffer.slice(wav.byteOffset + info.dataOffset, wav.byteOffset + info.dataOffset + info.dataBytes),
  );
  return {
    sampleRateHz,
    engine,
    voiceId,
    notes,
    pcm: (async function* whole() {
      yield pcm;
    })(),
  };
}

/**
 * Loads the installed Piper voice now (≈ 1 s and ≈ 100 MB, kept for the process's life anyway
 * once used), so the first job that speaks does not wait for it. Resolves false when the voice
 * is not installed or fails to load; the first request reports why.
 */
export async function preloadPiperVoice(voiceDir = configuredVoiceDir()): Promise<boolean> {
  if (!voiceInstalled(voiceDir, PIPER_DEFAULT_VOICE)) return false;
  return loadPiperVoice(voiceDir).then(
    () => true,
    () => false,
  );
}
