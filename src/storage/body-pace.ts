/**
 * @module storage/body-pace
 * The pace an upload body must keep (issue #34, finding 6: 100 uploads that sent their headers and
 * then trickled held their requests for minutes and slowed every other key). A body must deliver
 * at least `minBytes` within every `idleMs` window (a slow but steady body always does; a stalled
 * or trickling one does not), and all of it within `totalMs` of waiting. Otherwise the read
 * fails with `BodyTimeoutError` (408 `body_timeout`), after the body was cancelled.
 *
 * Each read races the stream's own `read()` against one timer, cleared whatever wins; the losing
 * read is still awaited by `Promise.race` (its later settling is handled) and ends when the reader
 * is cancelled. No TransformStream, no pipe: an aborted `pipeThrough` left rejected promises of its
 * own in workerd that nothing awaited.
 */
import { ApiError } from '../contract/errors.js';
import { numberVar } from '../shared/env.js';

export const DEFAULT_UPLOAD_IDLE_TIMEOUT_SEC = 30;
export const DEFAULT_UPLOAD_IDLE_MIN_BYTES = 16 * 1024;
export const DEFAULT_UPLOAD_BODY_DEADLINE_SEC = 3600;

export interface BodyPace {
  /** Length of a window in ms; 0 turns the pace check off. */
  idleMs: number;
  /** Bytes a window must bring (the end of the body counts as enough). */
  minBytes: number;
  /** The whole body's time in ms (its reads' waits); 0: no deadline. */
  totalMs: number;
}

/** Why a body was cut: it stalled (too little in a window) or ran past its deadline. */
export class BodyTimeoutError extends Error {
  constructor(
    readonly why: 'idle' | 'deadline',
    readonly pace: BodyPace,
  ) {
    super(
      why === 'idle'
        ? `the request body sent less than ${pace.minBytes} bytes in ${pace.idleMs / 1000} s; nothing was stored: send it again`
        : `the request body took longer than ${pace.totalMs / 1000} s; nothing was stored: send it again, or in parts (POST /api/uploads)`,
    );
    this.name = 'BodyTimeoutError';
  }
}

/**
 * The pace from the environment: `UPLOAD_IDLE_TIMEOUT_SEC` (30), `UPLOAD_IDLE_MIN_BYTES` (16 KiB),
 * `UPLOAD_BODY_DEADLINE_SEC` (3600). 0 turns a bound off.
 * @example
 * bodyPaceOf({ UPLOAD_IDLE_TIMEOUT_SEC: '2' }) // { idleMs: 2000, minBytes: 16384, totalMs: 3600000 }
 */
export function bodyPaceOf(env: {
  UPLOAD_IDLE_TIMEOUT_SEC?: string;
  UPLOAD_IDLE_MIN_BYTES?: string;
  UPLOAD_BODY_DEADLINE_SEC?: string;
}): BodyPace {
  return {
    idleMs: numberVar(env.UPLOAD_IDLE_TIMEOUT_SEC, DEFAULT_UPLOAD_IDLE_TIMEOUT_SEC) * 1000,
    minBytes: numberVar(env.UPLOAD_IDLE_MIN_BYTES, DEFAULT_UPLOAD_IDLE_MIN_BYTES),
    totalMs: numberVar(env.UPLOAD_BODY_DEADLINE_SEC, DEFAULT_UPLOAD_BODY_DEADLINE_SEC) * 1000,
  };
}

/**
 * Time counts only while a read waits for the client: the app's own pauses between reads (an R2
 * part being written) never count against the body.
 */
export interface PaceState {
  /** Wait in the current window, ms. */
  windowWaitMs: number;
  /** Bytes the current window has brought. */
  windowBytes: number;
  /** Wait over the whole body, ms. */
  totalWaitMs: number;
}

export const PACE_START: PaceState = { windowWaitMs: 0, windowBytes: 0, totalWaitMs: 0 };

/** Pure: the state after a read that waited `waitedMs` and brought `bytes` (a window that brought enough starts anew). */
export function afterRead(state: PaceState, waitedMs: number, bytes: number, pace: BodyPace): PaceState {
  const totalWaitMs = state.totalWaitMs + waitedMs;
  const windowBytes = state.windowBytes + bytes;
  return windowBytes >= pace.minBytes
    ? { windowWaitMs: 0, windowBytes: 0, totalWaitMs }
    : { windowWaitMs: state.windowWaitMs + waitedMs, windowBytes, totalWaitMs };
}

/**
 * Pure: how long the next read may wait, and which bound ends it; null when no bound applies.
 * @example
 * nextLimit({ windowWaitMs: 1000, windowBytes: 0, totalWaitMs: 1000 }, { idleMs: 30000, minBytes: 1, totalMs: 0 }) // { waitMs: 29000, why: 'idle' }
 */
export function nextLimit(
  state: PaceState,
  pace: BodyPace,
): { waitMs: number; why: BodyTimeoutError['why'] } | null {
  const idle = pace.idleMs > 0 ? pace.idleMs - state.windowWaitMs : Infinity;
  const deadline = pace.totalMs > 0 ? pace.totalMs - state.totalWaitMs : Infinity;
  if (idle === Infinity && deadline === Infinity) return null;
  return idle <= deadline
    ? { waitMs: Math.max(0, idle), why: 'idle' }
    : { waitMs: Math.max(0, deadline), why: 'deadline' };
}

/** A stream reader whose reads fail with `BodyTimeoutError` when the body falls below its pace. */
export class PacedReader {
  private state: PaceState = PACE_START;
  private cancelled = false;

  constructor(
    private readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    private readonly pace: BodyPace,
    private readonly now: () => number = Date.now,
  ) {}

  /** The next chunk, as `reader.read()`; throws `BodyTimeoutError` (the body then cancelled). */
  async read(): Promise<ReadableStreamReadResult<Uint8Array>> {
    const limit = nextLimit(this.state, this.pace);
    if (limit === null) return this.reader.read();
    const began = this.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), limit.waitMs);
    });
    let result: ReadableStreamReadResult<Uint8Array> | null;
    try {
      result = await Promise.race([this.reader.read(), expired]);
    } finally {
      clearTimeout(timer);
    }
    if (result === null) {
      const err = new BodyTimeoutError(limit.why, this.pace);
      await this.cancel(err);
      throw err;
    }
    const bytes = result.done ? 0 : result.value.byteLength;
    this.state = afterRead(this.state, this.now() - began, bytes, this.pace);
    return result;
  }

  /** Cancels the body (once): its pending read ends, and the client's bytes are no longer read. */
  async cancel(reason?: unknown): Promise<void> {
    if (this.cancelled) return;
    this.cancelled = true;
    await this.reader.cancel(reason).catch(() => {});
  }
}

/** A body that fell below its pace as the client's 408 `body_timeout`; any other error as it is. */
export function bodyTimeoutAsApiError(err: unknown): unknown {
  if (!(err instanceof BodyTimeoutError)) return err;
  return new ApiError(
    'body_timeout',
    err.message,
    { reason: err.why === 'idle' ? 'idle' : 'deadline' },
    { cause: err },
  );
}
