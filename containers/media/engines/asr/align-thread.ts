/**
 * @module containers/media/engines/asr/align-thread
 * Forced alignment on its own thread. soundswallower's `process_audio` is one synchronous
 * WebAssembly call per utterance (1.5–2.5 s for ≤ 24 s of speech): on the main thread it held
 * every request of the service (frames for the vision workers, other keys' jobs, health, DELETE)
 * for that long. Here one worker thread (`align-thread-worker.ts`) owns the decoder; it starts on
 * the first alignment (or `preloadAlignThread`) and is reused (its start, with the model load,
 * costs ≈ 0.4 CPU-s, against ≈ 0.25 for the model alone), and lets the process exit while idle.
 *
 * Calls are served one at a time, in order (the decoder is one synchronous object, and each
 * caller's wait must end when its own work is done). An abort ends the caller's wait at once:
 * still queued, the call is dropped; in flight, the worker is stuck in a synchronous call that
 * only `worker.terminate()` stops, so it is terminated and the next call starts a fresh one.
 */
import { Worker } from 'node:worker_threads';
import type { TimedWord } from '../../../../src/contract/media.js';
import { threadEntry } from '../../core/thread-entry.js';
import { utteranceSamples, type FillerAlignOptions } from './align-fillers.js';
import { AsrAbortedError, AsrEngineError, AsrInputError, type AsrErrorCode } from './errors.js';
import { ASR_SAMPLE_RATE_HZ } from './pcm.js';

/** One alignment the thread does; `pcm`'s buffer is transferred to it. */
export type AlignJob =
  | { kind: 'warm' }
  | { kind: 'text'; pcm: Int16Array; text: string }
  | {
      kind: 'fillers';
      pcm: Int16Array;
      offsetSec: number;
      words: readonly TimedWord[];
      options: FillerAlignOptions;
    };

/** An AlignJob as posted to the thread. */
export type AlignRequest = AlignJob & { id: number };

/** The thread's answer to request `id`: the aligned words (undefined: no filler alignment), or why not. */
export type AlignReply =
  | { id: number; ok: true; words: TimedWord[] | undefined }
  | { id: number; ok: false; code: AsrErrorCode; message: string };

/**
 * `alignText` (`align.ts`) on the alignment thread: `text` aligned to `pcm` (16 kHz mono s16).
 * @throws AsrInputError, AsrEngineError as `alignText`; AsrAbortedError when `signal` fires.
 */
export function alignTextInThread(pcm: Int16Array, text: string, signal?: AbortSignal): Promise<TimedWord[]> {
  return alignThread.run({ kind: 'text', pcm: pcm.slice(), text }, signal) as Promise<TimedWord[]>;
}

/**
 * `alignWithFillers` (`align-fillers.ts`) on the alignment thread; only the utterance's samples
 * are copied across.
 * @throws AsrAbortedError when `signal` fires; AsrEngineError when the thread dies.
 */
export function alignWithFillersInThread(
  pcm: Int16Array,
  startSec: number,
  endSec: number,
  words: readonly TimedWord[],
  options: FillerAlignOptions = {},
  signal?: AbortSignal,
): Promise<TimedWord[] | undefined> {
  const { from, to } = utteranceSamples(startSec, endSec);
  const span = pcm.slice(from, to);
  return alignThread.run(
    { kind: 'fillers', pcm: span, offsetSec: from / ASR_SAMPLE_RATE_HZ, words, options },
    signal,
  );
}

/**
 * Starts the alignment thread and loads its model now, so the first job does not pay it.
 * @throws AsrEngineError when the thread cannot start.
 */
export async function preloadAlignThread(): Promise<void> {
  await alignThread.run({ kind: 'warm' });
}

/** Pure: the error a failed reply stands for, of the class the in-thread call threw. */
export function replyError(code: AsrErrorCode, message: string): Error {
  if (code === 'invalid_audio' || code === 'invalid_segments' || code === 'invalid_text')
    return new AsrInputError(code, message);
  if (code === 'aborted') return new AsrAbortedError(message);
  return new AsrEngineError(message);
}

/** The worker thread and the calls waiting for it. */
class AlignThread {
  #worker: Worker | undefined;
  #nextId = 0;
  /** Settles when the call in flight (if any) is done with the worker. */
  #turn: Promise<void> = Promise.resolve();

  run(job: AlignJob, signal?: AbortSignal): Promise<TimedWord[] | undefined> {
    if (signal?.aborted) return Promise.reject(new AsrAbortedError());
    const previous = this.#turn;
    let done!: () => void;
    this.#turn = new Promise<void>((resolve) => (done = resolve));
    return new Promise<TimedWord[] | undefined>((resolve, reject) => {
      let worker: Worker | undefined;
      const finish = (settle: () => void) => {
        signal?.removeEventListener('abort', onAbort);
        worker?.off('message', onMessage).off('error', onDeath).off('exit', onDeath);
        if (worker === this.#worker) worker?.unref();
        // Dropped while queued: the turn still passes only after the call ahead is done.
        void previous.then(done);
        settle();
      };
      const onAbort = () => {
        // Stuck in a synchronous call: only terminate() stops it; the next call starts afresh.
        if (worker) this.#drop(worker);
        finish(() => reject(new AsrAbortedError()));
      };
      const onDeath = (err: unknown) => {
        if (worker) this.#drop(worker);
        const why = err instanceof Error ? err.message : `exited with code ${String(err)}`;
        finish(() => reject(new AsrEngineError(`alignment thread failed: ${why}`)));
      };
      const id = this.#nextId++;
      const onMessage = (reply: AlignReply) => {
        if (reply.id !== id) return;
        finish(() => (reply.ok ? resolve(reply.words) : reject(replyError(reply.code, reply.message))));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      void previous.then(() => {
        if (signal?.aborted) return; // onAbort settled it
        worker = this.#worker ??= this.#start();
        worker.ref();
        worker.on('message', onMessage).on('error', onDeath).on('exit', onDeath);
        worker.postMessage(
          { ...job, id } as AlignRequest,
          'pcm' in job ? [job.pcm.buffer as ArrayBuffer] : [],
        );
      });
    });
  }

  #start(): Worker {
    const { url, execArgv } = threadEntry(import.meta.url, 'align-thread-worker');
    const worker = new Worker(url, { execArgv });
    worker.unref();
    // Between calls too: a thread that dies is replaced by the next call, and its error is no
    // uncaught 'error' event of this process (a call in flight hears both through its own listeners).
    worker.on('error', () => {});
    worker.on('exit', () => {
      if (this.#worker === worker) this.#worker = undefined;
    });
    return worker;
  }

  #drop(worker: Worker): void {
    if (this.#worker === worker) this.#worker = undefined;
    void worker.terminate();
  }

  /** Stops the thread (tests, shutdown); a later call starts a new one. */
  dispose(): void {
    if (this.#worker) this.#drop(this.#worker);
  }
}

const alignThread = new AlignThread();

/** Stops the alignment thread now (tests, shutdown); the next alignment starts a new one. */
export function disposeAlignThread(): void {
  alignThread.dispose();
}
