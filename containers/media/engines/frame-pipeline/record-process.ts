/**
 * @module containers/media/engines/frame-pipeline/record-process
 * A child process that answers requests in order with fixed-size records on stdout (the person
 * segmenter, the native face mesh). Started with spawnMedia, so the job's nice value, DELETE and
 * deadline reach it. Its idle limit counts only while an answer is awaited: a child waiting for
 * our next request is not stuck (the segmenter starts before a mouth analysis that can take
 * minutes on a long video; with the spawn's own idle timer it was killed after 120 s).
 */
import { IDLE_TIMEOUT_MS, spawnMedia, WorkLimitError } from '../../core/ffmpeg.js';
import { readRecords } from './frames.js';

export interface RecordProcess<T> extends Disposable {
  /** Writes one request (its parts in order) and resolves with its answer. */
  request(...parts: Uint8Array[]): Promise<T>;
  /** Writes bytes that get no answer (a header that sets the child up). */
  send(bytes: Uint8Array): void;
  dispose(): void;
}

export interface RecordProcessOptions<T> {
  /** Bytes of one answer on stdout (known later when the child's set-up decides it). */
  recordBytes: number | Promise<number>;
  /** Turns an answer's bytes (valid only during the call) into the caller's value. */
  parse: (record: Buffer) => T;
  /** What the messages call it, e.g. "the segmenter process". */
  name: string;
  signal?: AbortSignal;
  /** No answer this long while one is awaited: the child is stuck, killed. Default `IDLE_TIMEOUT_MS`. */
  answerTimeoutMs?: number;
}

/** @example using seg = startRecordProcess(python, [script, 'segment'], { recordBytes: 65536, parse, name }); */
export function startRecordProcess<T>(
  bin: string,
  args: string[],
  { recordBytes, parse, name, signal, answerTimeoutMs = IDLE_TIMEOUT_MS }: RecordProcessOptions<T>,
): RecordProcess<T> {
  const proc = spawnMedia(bin, args, signal, { idleMs: Infinity });
  const waiting: Array<{ resolve: (value: T) => void; reject: (err: Error) => void }> = [];
  let failure: Error | null = null;
  let timer: NodeJS.Timeout | undefined;
  const fail = (err: Error) => {
    failure ??= err;
    clearTimeout(timer);
    for (const w of waiting.splice(0)) w.reject(failure);
  };
  // (Re)started whenever an answer is awaited: after a request into an empty queue, after each answer.
  const watch = () => {
    clearTimeout(timer);
    if (!waiting.length) return;
    timer = setTimeout(() => {
      fail(new WorkLimitError('idle', `${name} answered nothing for ${answerTimeoutMs / 1000} s`));
      proc.dispose();
    }, answerTimeoutMs);
    timer.unref();
  };
  void (async () => {
    for await (const record of readRecords(proc.child.stdout, await recordBytes)) {
      const next = waiting.shift();
      watch();
      next?.resolve(parse(record));
    }
  })().catch(fail);
  proc.done.then(() => fail(new Error(`${name} ended early`)), fail);
  const dispose = () => {
    fail(new Error(`${name} was disposed`));
    proc.child.stdin.end();
    proc.dispose();
  };
  return {
    request(...parts) {
      if (failure) return Promise.reject(failure);
      return new Promise<T>((resolve, reject) => {
        waiting.push({ resolve, reject });
        if (waiting.length === 1) watch();
        for (const part of parts) proc.child.stdin.write(part);
      });
    },
    send(bytes) {
      if (!failure) proc.child.stdin.write(bytes);
    },
    dispose,
    [Symbol.dispose]: dispose,
  };
}
