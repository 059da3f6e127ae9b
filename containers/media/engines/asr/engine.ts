/**
 * @module containers/media/engines/asr/engine
 * Choosing the speech recogniser (the port is `port.ts`): the default Whisper engine (faster-whisper in the
 * project's Python venv) and Debian pocketsphinx as the fallback when Whisper is not installed.
 */
import type { AsrOutput } from '../../../../src/contract/media.js';
import { mediaConfig, type AsrConfig } from '../../core/config.js';
import { DEFAULT_PYTHON_VENV, venvModelDir, venvPython } from '../../core/venv.js';
import { AsrModelError } from './errors.js';
import type { AsrEngine, AsrRunStats, TranscribeOptions } from './port.js';

export type { AsrEngine, AsrRunStats, TranscribeOptions } from './port.js';

/** Engines selectable by `ASR_ENGINE`. */
export type AsrEngineKind = AsrConfig['engine'];

/**
 * Builds the engine the configuration names (`asr` of core/config: `ASR_ENGINE`: `auto`, the
 * default, is faster-whisper when the venv and verified weights exist, else pocketsphinx with a
 * warning in every output; `faster-whisper` / `pocketsphinx` force one).
 * @example const asr = await createAsrEngine(); const out = await asr.transcribe(pcm);
 * @example const asr = await createAsrEngine(configFrom({ ASR_ENGINE: 'pocketsphinx' }).asr);
 */
export async function createAsrEngine(config: AsrConfig = mediaConfig().asr): Promise<AsrEngine> {
  const { engine: kind, workers } = config;
  const { FasterWhisperEngine, missingWhisperFile, WHISPER_MODEL_NAME, DEFAULT_WHISPER_BEAM_SIZE } =
    await import('./faster-whisper.js');
  const { PocketsphinxEngine } = await import('./pocketsphinx.js');
  const venv = config.pythonVenv ?? DEFAULT_PYTHON_VENV;
  const python = venvPython(venv);
  const modelDir = config.whisperModelDir ?? venvModelDir(WHISPER_MODEL_NAME, venv);
  switch (kind) {
    case 'auto':
    case 'faster-whisper': {
      const missing = missingWhisperFile(python, modelDir);
      if (!missing) {
        const beamSize = config.beamSize ?? DEFAULT_WHISPER_BEAM_SIZE;
        const whisper = new FasterWhisperEngine({ python, modelDir, workers, beamSize });
        return kind === 'auto'
          ? new FallbackAsrEngine(whisper, () => new PocketsphinxEngine({ workers }))
          : whisper;
      }
      if (kind === 'faster-whisper')
        throw new AsrModelError(
          'model_not_found',
          `Whisper is not installed: ${missing} is missing (run npm run setup)`,
        );
      return new FallbackAsrEngine(
        undefined,
        () => new PocketsphinxEngine({ workers }),
        `${missing} is missing`,
      );
    }
    case 'pocketsphinx':
      return new PocketsphinxEngine({ workers });
  }
}

/** The warning every fallback output carries. */
export const fallbackWarning = (why: string): string =>
  `speech was recognised by the fallback engine pocketsphinx (about 5x more word errors than Whisper) because the Whisper engine is not available: ${why}`;

/**
 * The default engine: Whisper, or pocketsphinx when Whisper's files are missing or its worker
 * cannot load the model; then every output names the fallback in `warnings`. A Whisper that
 * loaded and later fails is an error, not a silent switch.
 */
export class FallbackAsrEngine implements AsrEngine {
  #fallback?: AsrEngine;
  #reason?: string;
  readonly #primary?: AsrEngine & { load(): Promise<void> };
  readonly #makeFallback: () => AsrEngine;

  constructor(
    primary: (AsrEngine & { load(): Promise<void> }) | undefined,
    makeFallback: () => AsrEngine,
    reason?: string,
  ) {
    this.#primary = primary;
    this.#makeFallback = makeFallback;
    this.#reason = primary ? undefined : reason;
  }

  get name(): string {
    return this.#reason ? 'pocketsphinx' : (this.#primary?.name ?? 'pocketsphinx');
  }

  get lastRun(): AsrRunStats | undefined {
    return this.#reason ? this.#fallback?.lastRun : this.#primary?.lastRun;
  }

  /** Loads Whisper now; a model that cannot load selects the fallback. */
  async load(): Promise<void> {
    if (this.#reason || !this.#primary) return;
    try {
      await this.#primary.load();
    } catch (err) {
      if (!(err instanceof AsrModelError)) throw err;
      this.#reason = err.message;
    }
  }

  /** @inheritdoc */
  async transcribe(pcm: Int16Array, options?: TranscribeOptions): Promise<AsrOutput> {
    if (!this.#reason && this.#primary) {
      try {
        await this.#primary.load();
        return await this.#primary.transcribe(pcm, options);
      } catch (err) {
        if (!(err instanceof AsrModelError)) throw err;
        this.#reason = err.message;
      }
    }
    this.#fallback ??= this.#makeFallback();
    const out = await this.#fallback.transcribe(pcm, options);
    const warnings = [...(out.warnings ?? []), fallbackWarning(this.#reason ?? 'unknown')];
    if (options?.language && options.language !== 'en')
      warnings.push(
        `the fallback engine only knows English: the ${options.language} speech was not transcribed in its language`,
      );
    return { ...out, language: 'en', language_probability: null, warnings };
  }

  dispose(): void {
    void this.#primary?.dispose();
    void this.#fallback?.dispose();
  }

  [Symbol.dispose](): void {
    this.dispose();
  }
}
