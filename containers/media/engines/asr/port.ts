/**
 * @module containers/media/engines/asr/port
 * The speech-recognition port: the interface every engine implements. A leaf module, so the
 * engines (faster-whisper, pocketsphinx) and the factory that picks one (`engine.ts`) both import
 * it without importing each other.
 */
import type { AsrOutput, TimeSegment } from '../../../../src/contract/media.js';

export interface TranscribeOptions {
  /** Speech segments from VAD (seconds). When given, only these (padded) are decoded. */
  speechSegments?: TimeSegment[];
  /** Aborts the decode; child processes are killed and native jobs stopped. */
  signal?: AbortSignal;
  /** The spoken language (a Whisper code, ISO 639-1); detected from the speech when absent. */
  language?: string;
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
  /** Utterances decoded a second time because the first decode looped (whisper). */
  loopRedecodes?: number;
  /** Utterances decoded again without the prompt, and kept, because the first seemed to skip speech (whisper). */
  skippedSpeechRedecodes?: number;
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
