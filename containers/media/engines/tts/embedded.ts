/**
 * @module containers/media/engines/tts/embedded
 * The engine of voice_generator 0: the neural Piper voice when it is installed (the setup and
 * the Docker image put it in `.venv/models/`, verified), else espeak-ng. A fallback is never
 * silent: the result's `notes` say why espeak-ng spoke, and the render report repeats them.
 * An explicit espeak-ng voice name in `voice_id` (e.g. `en-gb+f3`) still selects espeak-ng.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { mediaConfig } from '../../core/config.js';
import { venvModelDir } from '../../core/venv.js';
import type { SynthesisRequest, SynthesisResult, SynthesisStream, TtsEngine } from './engine.js';
import { TtsError } from './errors.js';
import { createEspeakEngine, type EspeakOptions } from './espeak.js';
import { normalizeText } from './normalize.js';
import { createPiperEngine, loadPiperVoice, PIPER_DEFAULT_VOICE, type PiperOptions } from './piper.js';
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
  /** The Piper voice by `viaPiper`, else espeak-ng: asked for by name, or the fallback (with its note). */
  async function speak<T>(
    req: SynthesisRequest,
    viaPiper: () => Promise<T>,
    viaEspeak: (result: Promise<SynthesisResult>) => Promise<T>,
  ): Promise<T> {
    // Both voices say the same words, so the caption aligner (which normalises too) fits either.
    if (req.voiceId && !PIPER_NAMES.has(req.voiceId))
      return viaEspeak(espeak.synthesize({ ...req, text: normalizeText(req.text) }));
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
