import { describe, expect, it } from 'vitest';
import {
  afterRead,
  bodyPaceOf,
  BodyTimeoutError,
  nextLimit,
  PACE_START,
  PacedReader,
  type BodyPace,
} from '../../../../src/storage/body-pace.js';
import { parseMultipart } from '../../../../src/storage/multipart.js';

const pace: BodyPace = { idleMs: 1000, minBytes: 100, totalMs: 5000 };

describe('the pace of an upload body', () => {
  it('should read the settings, 0 turning a bound off', () => {
    expect(bodyPaceOf({})).toEqual({ idleMs: 30_000, minBytes: 16_384, totalMs: 3_600_000 });
    expect(bodyPaceOf({ UPLOAD_IDLE_TIMEOUT_SEC: '2', UPLOAD_BODY_DEADLINE_SEC: '0' })).toMatchObject({
      idleMs: 2000,
      totalMs: 0,
    });
    expect(nextLimit(PACE_START, { idleMs: 0, minBytes: 1, totalMs: 0 })).toBeNull();
  });

  it('should start a new window only once a window brought minBytes', () => {
    const trickled = afterRead(afterRead(PACE_START, 400, 60, pace), 400, 30, pace);
    expect(trickled).toEqual({ windowWaitMs: 800, windowBytes: 90, totalWaitMs: 800 });
    expect(nextLimit(trickled, pace)).toEqual({ waitMs: 200, why: 'idle' });
    const enough = afterRead(trickled, 100, 10, pace);
    expect(enough).toEqual({ windowWaitMs: 0, windowBytes: 0, totalWaitMs: 900 });
    expect(nextLimit(enough, pace)).toEqual({ waitMs: 1000, why: 'idle' });
  });

  it('should let the deadline end a read when it comes before the window does', () => {
    expect(nextLimit({ windowWaitMs: 0, windowBytes: 0, totalWaitMs: 4600 }, pace)).toEqual({
      waitMs: 400,
      why: 'deadline',
    });
  });
});

/** A real stream whose chunks come when `push` is called; records its cancellation. */
function controlledStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const state = { cancelled: null as unknown };
  const stream = new ReadableStream<Uint8Array>({
    start: (c) => void (controller = c),
    cancel: (reason) => void (state.cancelled = reason),
  });
  // A chunk due after the cancel is dropped, as a client's bytes are once the server stops reading.
  const push = (n: number) => state.cancelled === null && controller.enqueue(new Uint8Array(n));
  return { stream, push, state };
}

describe('PacedReader', () => {
  it('should cut a stalled body with BodyTimeoutError and cancel it', async () => {
    const { stream, push, state } = controlledStream();
    const reader = new PacedReader(stream.getReader(), { idleMs: 50, minBytes: 100, totalMs: 0 });
    push(10);
    expect((await reader.read()).value?.length).toBe(10);
    const t0 = performance.now();
    await expect(reader.read()).rejects.toBeInstanceOf(BodyTimeoutError);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(40);
    expect(state.cancelled).toBeInstanceOf(BodyTimeoutError);
  });

  it('should never cut a body that brings minBytes in every window', async () => {
    const { stream, push } = controlledStream();
    const reader = new PacedReader(stream.getReader(), { idleMs: 60, minBytes: 100, totalMs: 0 });
    let read = 0;
    for (let i = 0; i < 8; i++) {
      setTimeout(() => push(100), 30);
      read += (await reader.read()).value!.length;
    }
    expect(read).toBe(800);
  });

  it('should cut a body that keeps its pace but outlasts the deadline, naming the deadline', async () => {
    const { stream, push } = controlledStream();
    const reader = new PacedReader(stream.getReader(), { idleMs: 1000, minBytes: 1, totalMs: 120 });
    const reads = async () => {
      for (;;) {
        setTimeout(() => push(1), 30);
        await reader.read();
      }
    };
    await expect(reads()).rejects.toMatchObject({ name: 'BodyTimeoutError', why: 'deadline' });
  });

  it('should surface the timeout from the multipart parser, not as a malformed body', async () => {
    const { stream, push } = controlledStream();
    const parts = parseMultipart(stream, 'b', { pace: { idleMs: 50, minBytes: 1, totalMs: 0 } });
    push(0);
    await expect(parts.next()).rejects.toBeInstanceOf(BodyTimeoutError);
  });
});
