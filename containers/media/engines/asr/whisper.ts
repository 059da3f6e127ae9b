/**
 * @module containers/media/engines/asr/whisper
 * Production adapter: whisper.cpp through npm `@fugood/whisper.node` (async, cancellable).
 * The model is whisper.cpp's legacy GGML file (`ggml-*.bin`, magic `ggml`), never GGUF; its
 * path comes from configuration (`WHISPER_MODEL_PATH`). The model is loaded on first use and
 * checked first, so a wrong path fails with a message naming the file and the problem.
 */
import { open, stat } from 'node:fs/promises';
import type { AsrOutput, TimedWord } from '../../../../src/contract/media.js';
import type { AsrEngine, AsrRunStats, TranscribeOptions } from './engine.js';
import { AsrAbortedError, AsrEngineError, AsrModelError } from './errors.js';
import { ASR_SAMPLE_RATE_HZ, pcmToBytes } from './pcm.js';
import { planUtterances } from './segments.js';

/** First four bytes of a legacy GGML whisper model (0x67676d6c stored little-endian). */
const GGML_MAGIC = 'lmgg';
const GGUF_MAGIC = 'GGUF';
/**
 * The binding returns no token probabilities, so every word gets this confidence.
 * (Neutral-high: Whisper's words are usually right; analytics should not treat it as measured.)
 */
export const WHISPER_WORD_CONFIDENCE = 0.9;
/** Whisper's context window; longer VAD utterances are split, seconds. */
const WHISPER_WINDOW_SEC = 30;

export interface WhisperOptions {
  /** Path of the `ggml-*.bin` model (WHISPER_MODEL_PATH). */
  modelPath: string;
  /** CPU threads; default 2. */
  threads?: number;
  /** Spoken language code; default 'en'. */
  language?: string;
}

type WhisperContext = import('@fugood/whisper.node').WhisperContext;

/** whisper.cpp as an AsrEngine. */
export class WhisperEngine implements AsrEngine {
  readonly name = 'whisper';
  lastRun?: AsrRunStats;
  readonly #modelPath: string;
  readonly #threads: number;
  readonly #language: string;
  #context?: Promise<WhisperContext>;
  #disposed = false;

  constructor({ modelPath, threads = 2, language = 'en' }: WhisperOptions) {
    this.#modelPath = modelPath;
    this.#threads = threads;
    this.#language = language;
  }

  /** Loads (once) and returns the whisper context. @throws AsrModelError */
  load(): Promise<WhisperContext> {
    this.#context ??= loadWhisperModel(this.#modelPath);
    this.#context.catch(() => {
      this.#context = undefined; // let a later call retry, e.g. after the volume is mounted
    });
    return this.#context;
  }

  /** @inheritdoc */
  async transcribe(pcm: Int16Array, { speechSegments, signal }: TranscribeOptions = {}): Promise<AsrOutput> {
    const t0 = performance.now();
    if (this.#disposed) throw new AsrEngineError('whisper engine was disposed');
    const ctx = await this.load();
    const utterances = planUtterances(pcm, speechSegments, {
      paddingSec: 0.2,
      mergeGapSec: 1,
      maxUtteranceSec: speechSegments ? WHISPER_WINDOW_SEC : Infinity,
    });
    const words: TimedWord[] = [];
    for (const u of utterances) {
      if (signal?.aborted) throw new AsrAbortedError();
      const slice = pcm.subarray(Math.floor(u.start * ASR_SAMPLE_RATE_HZ), Math.ceil(u.end * ASR_SAMPLE_RATE_HZ));
      const bytes = pcmToBytes(slice);
      const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
      const job = ctx.transcribeData(data, {
        language: this.#language,
        maxThreads: this.#threads,
        tokenTimestamps: true,
        maxLen: 1, // one token per segment: the binding's way to get token times
        temperature: 0,
        temperatureInc: 0,
      });
      // The binding's promise may never settle after stop(), so an abort rejects at once.
      let onAbort = (): void => {};
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => {
          void job.stop().catch(() => {});
          reject(new AsrAbortedError());
        };
      });
      aborted.catch(() => {});
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const result = await Promise.race([job.promise, aborted]);
        if (result.isAborted || signal?.aborted) throw new AsrAbortedError();
        words.push(...tokensToWords(result.segments, u.start));
      } catch (err) {
        if (err instanceof AsrAbortedError) throw err;
        throw new AsrEngineError(`whisper transcription failed: ${(err as Error).message}`, { cause: err });
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    }
    this.lastRun = { wallMs: performance.now() - t0, peakRssBytes: process.memoryUsage().rss, utterances: utterances.length, processes: 1 };
    return { engine: this.name, words };
  }

  /** Releases the native context; idempotent. */
  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    const ctx = await this.#context?.catch(() => undefined);
    await ctx?.release();
  }

  [Symbol.dispose](): void {
    void this.dispose();
  }
}

/**
 * Checks the file (exists, GGML magic) and loads it.
 * @throws AsrModelError `model_not_found` / `model_invalid` with the path and the reason.
 */
export async function loadWhisperModel(modelPath: string): Promise<WhisperContext> {
  if (!modelPath) {
    throw new AsrModelError('model_not_found', 'WHISPER_MODEL_PATH is not set; ASR_ENGINE=whisper needs a whisper.cpp ggml-*.bin model file');
  }
  const info = await stat(modelPath).catch(() => null);
  if (!info?.isFile()) throw new AsrModelError('model_not_found', `whisper model not found at WHISPER_MODEL_PATH=${modelPath}`);
  const magic = await readMagic(modelPath);
  if (magic === GGUF_MAGIC) {
    throw new AsrModelError('model_invalid', `${modelPath} is GGUF; whisper.cpp needs its legacy GGML format (ggml-*.bin)`);
  }
  if (magic !== GGML_MAGIC) {
    throw new AsrModelError('model_invalid', `${modelPath} is not a whisper.cpp GGML model (no 'ggml' magic at byte 0)`);
  }
  try {
    const { initWhisper } = await import('@fugood/whisper.node');
    return await initWhisper({ filePath: modelPath, useGpu: false });
  } catch (err) {
    throw new AsrModelError('model_invalid', `whisper.cpp could not load ${modelPath}: ${(err as Error).message}`, { cause: err });
  }
}

async function readMagic(path: string): Promise<string> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(4);
    await fh.read(buf, 0, 4, 0);
    return buf.toString('latin1');
  } finally {
    await fh.close();
  }
}

/**
 * Pure: merges whisper token segments (`maxLen: 1`, times in ms) into words. A token that does
 * not start with a space continues the previous word; special tokens (`[_BEG_]`, `<|..|>`) drop.
 */
export function tokensToWords(segments: Array<{ text: string; t0: number; t1: number }>, offsetSec = 0): TimedWord[] {
  const words: TimedWord[] = [];
  for (const s of segments) {
    if (/^\s*(\[_[A-Z]+_?\]|<\|.*\|>|\[.*\])\s*$/.test(s.text) || !s.text.trim()) continue;
    const start = offsetSec + s.t0 / 1000;
    const end = offsetSec + s.t1 / 1000;
    const last = words.at(-1);
    if (last && !/^\s/.test(s.text)) {
      last.word += s.text;
      last.end = Math.max(last.end, end);
    } else {
      words.push({ word: s.text.trim(), start, end, confidence: WHISPER_WORD_CONFIDENCE });
    }
  }
  return words
    .map((w) => ({ ...w, word: w.word.trim().replace(/^[^\p{L}\p{N}']+|[^\p{L}\p{N}']+$/gu, '') }))
    .filter((w) => w.word);
}
