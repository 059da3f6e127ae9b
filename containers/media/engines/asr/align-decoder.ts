/**
 * @module containers/media/engines/asr/align-decoder
 * The forced-alignment decoder: SoundSwallower (pocketsphinx's aligner, with its en-us model and
 * 134k-word CMU dictionary) built natively, in a warm Python child (`python/align_worker.py`,
 * PyPI `soundswallower`). The same C library and model as npm's WebAssembly build, with the same
 * answers for less CPU (docs/benchmarks.md, "The aligner, native"), and outside this process, so a
 * long search never holds the service's main thread (frames for the vision workers, other keys'
 * jobs, health, DELETE).
 *
 * Requests are answered one at a time, in order; each is whole (its settings, grammar and PCM
 * travel with it), so the callers' searches may interleave. An abort ends the caller's wait at
 * once: still queued, the request is dropped; in flight, the child is killed (the C search cannot
 * be interrupted) and the next request starts a fresh one, which first learns the words added to
 * the dictionary so far. The child starts on the first request (or `preload`) and does not keep
 * the service alive while idle.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Socket } from 'node:net';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { childEnv, mediaConfig } from '../../core/config.js';
import { DEFAULT_PYTHON_VENV, pythonScript, venvPython } from '../../core/venv.js';
import { AsrAbortedError, AsrEngineError, AsrModelError } from './errors.js';
import { lastLine } from './whisper-process.js';

/** One word (or silence, filler) of an alignment: text, begin and duration (s), probability. */
export interface AlignSegment {
  t: string;
  b: number;
  d: number;
  p: number;
}

/** What a search aligns: the words in order, or a JSGF grammar. */
export type AlignSearch = { text: string } | { grammar: string };

/** Decoder settings of one search (SoundSwallower's names). */
export interface SearchSettings {
  beam: number;
  pbeam: number;
  wbeam: number;
  /** Optional silences and noises between the words. */
  fsgusefiller: boolean;
}

/** The decoder's own beams, with optional silences and noises between the words. */
export const SEARCH_WITH_SILENCES: SearchSettings = {
  fsgusefiller: true,
  beam: 1e-48,
  pbeam: 1e-48,
  wbeam: 7e-29,
};

/** Longest wait for the decoder to load, milliseconds. */
const READY_TIMEOUT_MS = 30_000;
const STDERR_TAIL_CHARS = 2_000;

/** A line of the child: a request's answer (`error` when the decoder refused it), or its start. */
type Reply = { id?: number; error?: string } & Record<string, unknown>;

interface Request {
  body: Record<string, unknown>;
  pcm?: Int16Array;
  resolve: (reply: Reply) => void;
  reject: (err: Error) => void;
}

/** The decoder's child process and the requests waiting for it. */
export class AlignDecoder {
  readonly #python: () => string;
  #child?: ChildProcessWithoutNullStreams;
  #ready?: Promise<void>;
  #stderr = '';
  #nextId = 1;
  readonly #queue: Request[] = [];
  /** The request the child is answering, with its id. */
  #inFlight?: { request: Request; id: number };
  /** Words added to the dictionary: a fresh child (after an abort or a crash) learns them first. */
  readonly #added = new Map<string, string>();

  /** @param python the interpreter whose environment has `soundswallower` (read when the child starts). */
  constructor(python: () => string) {
    this.#python = python;
  }

  /**
   * The pronunciation of each word in the dictionary, null for a word it lacks.
   * @throws AsrEngineError when the decoder fails; AsrAbortedError when `signal` fires.
   */
  async lookupWords(words: readonly string[], signal?: AbortSignal): Promise<Array<string | null>> {
    const reply = await this.#request({ op: 'lookup', words }, undefined, signal);
    if (reply.error) throw new AsrEngineError(`the aligner's dictionary failed: ${reply.error}`);
    return reply.prons as Array<string | null>;
  }

  /** Adds a word; false when the decoder refuses it (a phone its model lacks). */
  async addWord(word: string, pron: string, signal?: AbortSignal): Promise<boolean> {
    const reply = await this.#request({ op: 'add', words: [[word, pron]] }, undefined, signal);
    if (reply.error || (reply.refused as string[]).length > 0) return false;
    this.#added.set(word, pron);
    return true;
  }

  /**
   * Aligns `search` to `pcm` (16 kHz mono s16): the decoder's word segmentation, empty when the
   * search ended outside its grammar.
   * @throws AsrEngineError when the decoder fails; AsrAbortedError when `signal` fires.
   */
  async align(
    pcm: Int16Array,
    search: AlignSearch,
    settings: SearchSettings,
    signal?: AbortSignal,
  ): Promise<AlignSegment[]> {
    const reply = await this.#request(
      { op: 'align', samples: pcm.length, config: settings, ...search },
      pcm,
      signal,
    );
    if (reply.error) throw new AsrEngineError(`forced alignment failed: ${reply.error}`);
    return reply.w as AlignSegment[];
  }

  /** Pid of the live child, if any (tests, memory sampling). */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /**
   * Starts the child and loads its model now, so the first alignment does not pay it.
   * @throws AsrModelError when the child cannot start or load (as every request then does).
   */
  preload(): Promise<void> {
    return this.#start();
  }

  /** Stops the child (tests, shutdown); the next request starts a new one. */
  dispose(): void {
    this.#kill();
  }

  #request(body: Record<string, unknown>, pcm: Int16Array | undefined, signal?: AbortSignal): Promise<Reply> {
    if (signal?.aborted) return Promise.reject(new AsrAbortedError());
    return new Promise<Reply>((resolve, reject) => {
      const onAbort = () => {
        const queued = this.#queue.indexOf(request);
        if (queued >= 0) this.#queue.splice(queued, 1);
        else if (this.#inFlight?.request === request) {
          // The C search cannot be interrupted: a fresh decoder serves the next request.
          this.#kill();
          this.#finish();
        }
        reject(new AsrAbortedError());
      };
      const request: Request = {
        body,
        pcm,
        resolve: (reply) => (signal?.removeEventListener('abort', onAbort), resolve(reply)),
        reject: (err) => (signal?.removeEventListener('abort', onAbort), reject(err)),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(request);
      this.#next();
    });
  }

  /** Sends the next queued request when none is in flight. */
  #next(): void {
    if (this.#inFlight || this.#queue.length === 0) return;
    const request = this.#queue.shift()!;
    const id = this.#nextId++;
    this.#inFlight = { request, id };
    this.#start().then(
      () => {
        if (this.#inFlight?.id !== id) return; // aborted while the decoder loaded
        const child = this.#child!;
        this.#hold(child, true);
        child.stdin.write(`${JSON.stringify({ ...request.body, id })}\n`);
        if (request.pcm) {
          const { buffer, byteOffset, byteLength } = request.pcm;
          child.stdin.write(Buffer.from(buffer, byteOffset, byteLength));
        }
      },
      (err: Error) => {
        if (this.#inFlight?.id !== id) return;
        request.reject(err);
        this.#finish();
      },
    );
  }

  /** The request in flight is answered (or given up): on to the next. */
  #finish(): void {
    this.#inFlight = undefined;
    if (this.#child) this.#hold(this.#child, false);
    this.#next();
  }

  /** While a request is in flight the child keeps the service alive; idle, it does not. */
  #hold(child: ChildProcessWithoutNullStreams, busy: boolean): void {
    for (const handle of [child, pipe(child.stdout)]) {
      if (busy) handle.ref();
      else handle.unref();
    }
  }

  #onLine(reply: Reply): void {
    const current = this.#inFlight;
    if (!current || reply.id !== current.id) return; // an answer to a request given up
    current.request.resolve(reply);
    this.#finish();
  }

  #onExit(why: string): void {
    const current = this.#inFlight;
    if (!current) return;
    current.request.reject(new AsrEngineError(why));
    this.#finish();
  }

  #start(): Promise<void> {
    this.#ready ??= this.#spawn();
    this.#ready.catch(() => {
      this.#ready = undefined;
    });
    return this.#ready;
  }

  #spawn(): Promise<void> {
    const python = this.#python();
    this.#stderr = '';
    const child = spawn(python, ['-u', pythonScript('align_worker.py')], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: childEnv({ PYTHONUNBUFFERED: '1' }),
    });
    this.#child = child;
    this.#hold(child, false);
    pipe(child.stderr).unref(); // read only to say why the child died
    child.stdin.on('error', () => {}); // a dead child is reported by 'close'
    child.stderr.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    return new Promise<void>((resolve, reject) => {
      let ready = false;
      const timer = setTimeout(() => {
        reject(
          new AsrModelError('model_invalid', `the aligner did not load within ${READY_TIMEOUT_MS / 1000} s`),
        );
        this.#kill();
      }, READY_TIMEOUT_MS);
      createInterface({ input: child.stdout }).on('line', (text) => {
        let reply: Reply;
        try {
          reply = JSON.parse(text) as Reply;
        } catch {
          return; // a library printing to stdout; not ours
        }
        if (ready) return this.#child === child && this.#onLine(reply);
        clearTimeout(timer);
        ready = reply.ready === true;
        // Answered before any request (its id is no request's): callers looked these words up before.
        if (ready && this.#added.size > 0)
          child.stdin.write(`${JSON.stringify({ id: 0, op: 'add', words: [...this.#added] })}\n`);
        if (ready) resolve();
        else reject(new AsrModelError('model_invalid', String(reply.error ?? 'the aligner failed to start')));
      });
      child.on('error', (err) => {
        clearTimeout(timer);
        const hint = existsSync(python) ? '' : ' (the setup script makes the Python environment)';
        reject(
          new AsrModelError('model_not_found', `cannot start the aligner ${python}: ${err.message}${hint}`),
        );
      });
      child.on('close', (code, sig) => {
        clearTimeout(timer);
        const why = `the aligner exited (${sig ?? `code ${code}`})${this.#stderr ? `: ${lastLine(this.#stderr)}` : ''}`;
        if (!ready) reject(new AsrModelError('model_invalid', why));
        if (this.#child !== child) return; // killed on purpose
        this.#child = undefined;
        this.#ready = undefined;
        this.#onExit(why);
      });
    });
  }

  #kill(): void {
    const child = this.#child;
    this.#child = undefined;
    this.#ready = undefined;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/** A child's stdio stream is a socket: it can stop keeping the event loop alive. */
const pipe = (stream: Readable): Socket => stream as Socket;

/** The service's one decoder, in the configured Python environment. */
export const alignDecoder = new AlignDecoder(() =>
  venvPython(mediaConfig().asr.pythonVenv ?? DEFAULT_PYTHON_VENV),
);
