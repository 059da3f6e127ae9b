/**
 * @module containers/media/engines/asr/whisper-process
 * The warm Python child that runs faster-whisper (`containers/media/python/asr_worker.py`):
 * started on first use (model load ~2 s), kept for later requests, `workers` requests at a time
 * over JSON lines (the worker decodes them at once, one CPU thread each). Callers send one
 * utterance per request and keep at most `workers` of theirs queued (faster-whisper.ts), so the
 * FIFO queue interleaves concurrent jobs utterance by utterance: a long job never holds the
 * recogniser while a short one of another key waits. An aborted caller is answered at once; a request of
 * its that is still queued is never sent, and one already in the worker runs out (one utterance,
 * a few seconds) and is discarded, so other callers keep the warm process. A worker that does not
 * finish an abandoned request within ABANDONED_KILL_MS is killed. A process that dies is started
 * again by the next request.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { childEnv } from '../../core/config.js';
import { AsrAbortedError, AsrDecodeError, AsrEngineError, AsrModelError } from './errors.js';

/** Longest wait for the model to load, milliseconds. */
const READY_TIMEOUT_MS = 120_000;
/** An abandoned request still in the worker after this long means a stuck worker: kill it. */
const ABANDONED_KILL_MS = 60_000;
const STDERR_TAIL_CHARS = 2_000;

/** A line the worker writes for a request. */
export type WorkerLine = { id: number; error?: string; done?: boolean; peak_rss_bytes?: number } & Record<
  string,
  unknown
>;

export interface WhisperProcessOptions {
  python: string;
  script: string;
  modelDir: string;
  /** Requests decoded at once (one CPU thread each). */
  workers: number;
}

interface Pending {
  id: number;
  onLine: (line: WorkerLine) => void;
  resolve: (last: WorkerLine) => void;
  reject: (err: Error) => void;
}

/** One warm worker; `request` queues callers, `workers` of them in the worker at a time. */
export class WhisperProcess {
  readonly #opts: WhisperProcessOptions;
  #child?: ChildProcessWithoutNullStreams;
  #ready?: Promise<{ model: string; loadMs: number }>;
  readonly #pending = new Map<number, Pending>();
  /** Requests waiting for a free slot, first come first served. */
  readonly #waiting: Array<() => void> = [];
  #inWorker = 0;
  #nextId = 1;
  #stderr = '';
  #disposed = false;

  constructor(opts: WhisperProcessOptions) {
    this.#opts = opts;
  }

  /** Pid of the live worker, for memory sampling. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Starts the worker if needed and waits for its model. @throws AsrModelError when it cannot load. */
  start(): Promise<{ model: string; loadMs: number }> {
    if (this.#disposed) return Promise.reject(new AsrEngineError('whisper engine was disposed'));
    this.#ready ??= this.#spawn();
    this.#ready.catch(() => {
      this.#ready = undefined;
    });
    return this.#ready;
  }

  /**
   * Queues one request and calls `onLine` for each line of its answer until `done`.
   * @throws AsrEngineError when the worker fails or dies, AsrAbortedError on abort (at once,
   *   whether the request was still queued or already in the worker).
   */
  request(
    body: Record<string, unknown>,
    onLine: (line: WorkerLine) => void,
    signal?: AbortSignal,
  ): Promise<WorkerLine> {
    if (signal?.aborted) return Promise.reject(new AsrAbortedError());
    return new Promise<WorkerLine>((resolve, reject) => {
      let abandoned = false;
      const onAbort = () => {
        abandoned = true;
        reject(new AsrAbortedError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const caller = {
        onLine: (line: WorkerLine) => abandoned || onLine(line),
        resolve: (line: WorkerLine) => (signal?.removeEventListener('abort', onAbort), resolve(line)),
        reject: (err: Error) => (signal?.removeEventListener('abort', onAbort), reject(err)),
        isAbandoned: () => abandoned,
      };
      // A slot is freed by the worker's own answer, not the caller's: an abandoned request still holds its slot.
      this.#waiting.push(() => {
        if (abandoned) return this.#release();
        void this.#send(body, caller)
          .catch(() => {})
          .finally(() => this.#release());
      });
      this.#dispatch();
    });
  }

  /** Starts waiting requests while the worker has free slots. */
  #dispatch(): void {
    while (this.#inWorker < Math.max(1, this.#opts.workers) && this.#waiting.length > 0) {
      this.#inWorker++;
      this.#waiting.shift()!();
    }
  }

  #release(): void {
    this.#inWorker--;
    this.#dispatch();
  }

  async #send(
    body: Record<string, unknown>,
    caller: {
      onLine: (l: WorkerLine) => void;
      resolve: (l: WorkerLine) => void;
      reject: (e: Error) => void;
      isAbandoned: () => boolean;
    },
  ): Promise<void> {
    try {
      await this.start();
    } catch (err) {
      caller.reject(err as Error);
      return;
    }
    const child = this.#child!;
    const id = this.#nextId++;
    await new Promise<void>((done) => {
      const sentAt = Date.now();
      const watchdog = setInterval(() => {
        if (caller.isAbandoned() && Date.now() - sentAt > ABANDONED_KILL_MS) this.#kill();
      }, 1_000);
      watchdog.unref();
      const settle =
        <T>(fn: (x: T) => void) =>
        (x: T) => {
          clearInterval(watchdog);
          this.#pending.delete(id);
          fn(x);
          done();
        };
      this.#pending.set(id, {
        id,
        onLine: caller.onLine,
        resolve: settle(caller.resolve),
        reject: settle(caller.reject),
      });
      child.stdin.write(`${JSON.stringify({ ...body, id })}\n`);
    });
  }

  #spawn(): Promise<{ model: string; loadMs: number }> {
    const { python, script, modelDir, workers } = this.#opts;
    this.#stderr = '';
    const child = spawn(python, ['-u', script, modelDir], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: {
        OMP_WAIT_POLICY: 'PASSIVE',
        ...childEnv(),
        ASR_WORKERS: String(workers),
        OMP_NUM_THREADS: '1',
        PYTHONUNBUFFERED: '1',
      },
    });
    this.#child = child;
    child.stdin.on('error', () => {}); // a dead worker is reported by 'close'
    child.stderr.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    return new Promise((resolve, reject) => {
      let ready = false;
      const timer = setTimeout(() => {
        reject(
          new AsrModelError(
            'model_invalid',
            `the Whisper worker did not load ${modelDir} within ${READY_TIMEOUT_MS / 1000} s`,
          ),
        );
        this.#kill();
      }, READY_TIMEOUT_MS);
      const lines = createInterface({ input: child.stdout });
      lines.on('line', (text) => {
        let line: WorkerLine;
        try {
          line = JSON.parse(text) as WorkerLine;
        } catch {
          return; // a library printing to stdout; not ours
        }
        if (!ready) {
          clearTimeout(timer);
          if (line.ready === true) {
            ready = true;
            resolve({ model: String(line.model), loadMs: Number(line.load_ms) });
          } else
            reject(
              new AsrModelError('model_invalid', String(line.error ?? 'the Whisper worker failed to start')),
            );
          return;
        }
        const p = this.#pending.get(line.id);
        if (!p) return;
        if (line.error) p.reject(whisperFailure(String(line.error)));
        else if (line.done) p.resolve(line);
        else p.onLine(line);
      });
      child.on('error', (err) => {
        clearTimeout(timer);
        reject(
          new AsrModelError('model_not_found', `cannot start the Whisper worker ${python}: ${err.message}`),
        );
      });
      child.on('close', (code, sig) => {
        clearTimeout(timer);
        if (this.#child === child) {
          this.#child = undefined;
          this.#ready = undefined;
        }
        const why = `the Whisper worker exited (${sig ?? `code ${code}`})${this.#stderr ? `: ${lastLine(this.#stderr)}` : ''}`;
        if (!ready) reject(new AsrModelError('model_invalid', why));
        for (const p of [...this.#pending.values()]) p.reject(new AsrEngineError(why));
      });
    });
  }

  #kill(): void {
    const child = this.#child;
    this.#child = undefined;
    this.#ready = undefined;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }

  /** Stops the worker; idempotent. */
  dispose(): void {
    this.#disposed = true;
    this.#kill();
  }
}

/** Pure: the last line of a child's stderr tail, what it said as it died. */
export const lastLine = (s: string): string => s.trim().split('\n').at(-1) ?? '';

/** A worker's error line that says it ran out of memory: another attempt may fit. */
const OUT_OF_MEMORY = /^MemoryError\b|bad_alloc|out of memory/i;

/**
 * Pure: the error for the worker's error line about one request. Running out of memory may pass
 * on another attempt (beside fewer jobs): `AsrEngineError`, 500, retried. Any other exception is
 * the same on the same audio: `AsrDecodeError`, 422, not retried.
 * @example whisperFailure("ValueError: 'xx' is not a valid language code").status // 422
 */
export function whisperFailure(error: string): AsrEngineError | AsrDecodeError {
  const message = `Whisper failed: ${error}`;
  return OUT_OF_MEMORY.test(error) ? new AsrEngineError(message) : new AsrDecodeError(message);
}
