/**
 * @module containers/media/engines/asr/engine
 * The speech-recognition port: one interface, an embedded default (Debian pocketsphinx) and a
 * production adapter (whisper.cpp via `@fugood/whisper.node`) chosen by configuration.
 */
import type { AsrOutput, TimeSegment } from '../../../../src/contract/media.js';
import { AsrEngineError } from './errors.js';

export interface TranscribeOptions {
  /** Speech segments from VAD (seconds). When given, only these (padded) are decoded. */
  speechSegments?: TimeSegment[];
  /** Aborts the decode; child processes are killed and native jobs stopped. */
  signal?: AbortSignal;
}

/** Resource use of the last `transcribe` call, for benchmarks and logs. */
export interface AsrRunStats {
  /** Wall time of the call, milliseconds. */
  wallMs: number;
  /** Peak resident memory of the decoding process(es), bytes (sum over parallel children). */
  peakRssBytes: number;
  /** Number of utterances decoded. */
  utterances: number;
  /** Decoder processes (pocketsphinx) or native jobs (whisper) used. */
  processes: number;
}

/** A speech recogniser. Input is always 16 kHz mono s16 PCM. */
export interface AsrEngine extends Disposable {
  /** Engine name reported in `AsrOutput.engine`. */
  readonly name: string;
  /** Stats of the last completed `transcribe`, if any. */
  readonly lastRun?: AsrRunStats;
  transcribe(pcm: Int16Array, options?: TranscribeOptions): Promise<AsrOutput>;
  /** Releases models and processes; idempotent. */
  dispose(): void | Promise<void>;
}

/** Engines selectable by `ASR_ENGINE`. */
export type AsrEngineKind = 'pocketsphinx' | 'whisper';

export interface AsrEngineConfig {
  /** Which engine; default `pocketsphinx` (works with only the Debian packages). */
  ASR_ENGINE?: string;
  /** Path of a whisper.cpp `ggml-*.bin` model; required when ASR_ENGINE=whisper. */
  WHISPER_MODEL_PATH?: string;
  /** Decoding processes/threads; default 2 (the container's cores). */
  ASR_WORKERS?: string;
}

/** Default number of parallel decoders, matched to a 2-vCPU container. */
export const DEFAULT_ASR_WORKERS = 2;

/**
 * Builds the engine named by configuration (usually `process.env`).
 * @throws AsrEngineError for an unknown ASR_ENGINE; the whisper adapter throws AsrModelError
 *   at first use when WHISPER_MODEL_PATH is missing or not a ggml model.
 * @example const asr = await createAsrEngine(process.env); const out = await asr.transcribe(pcm);
 */
export async function createAsrEngine(config: AsrEngineConfig = {}): Promise<AsrEngine> {
  const kind = (config.ASR_ENGINE ?? 'pocketsphinx').trim().toLowerCase() || 'pocketsphinx';
  const workers = Number(config.ASR_WORKERS ?? DEFAULT_ASR_WORKERS) || DEFAULT_ASR_WORKERS;
  switch (kind) {
    case 'pocketsphinx': {
      const { PocketsphinxEngine } = await import('./pocketsphinx.js');
      return new PocketsphinxEngine({ workers });
    }
    case 'whisper': {
      const { WhisperEngine } = await import('./whisper.js');
      return new WhisperEngine({ modelPath: config.WHISPER_MODEL_PATH ?? '', threads: workers });
    }
    default:
      throw new AsrEngineError(`ASR_ENGINE=${kind} is not one of pocketsphinx, whisper`);
  }
}
