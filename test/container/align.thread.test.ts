/**
 * Forced alignment on its own thread (`asr/align-thread.ts`): the main thread stays free while a
 * 20 s utterance is aligned (the same call on the main thread holds it for seconds), the answers
 * are the very ones the in-thread aligners give, and errors and aborts come back to the caller.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TimedWord } from '../../src/contract/media.js';
import { alignText } from '../../containers/media/engines/asr/align.js';
import { alignWithFillers } from '../../containers/media/engines/asr/align-fillers.js';
import {
  alignTextInThread,
  alignWithFillersInThread,
  disposeAlignThread,
  preloadAlignThread,
} from '../../containers/media/engines/asr/align-thread.js';
import { MEDIA_DIR } from '../support/jfk.js';

const JFK_TEXT =
  'And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.';
const UM_TEXT = 'montreal forced um aligner';
/** A timer this late means the main thread was held (one frame's worth of work is ~0.1 s). */
const MAX_TIMER_LATENESS_MS = 100;

let clip: Int16Array;
let clipSec: number;
let words: TimedWord[];

/** Decodes media files, one after the other, to 16 kHz mono s16le. */
function pcmOf(...files: string[]): Int16Array {
  const inputs = files.flatMap((f) => ['-i', join(MEDIA_DIR, f)]);
  const concat = `${files.map((_, i) => `[${i}:a]`).join('')}concat=n=${files.length}:v=0:a=1`;
  const buf = execFileSync(
    'ffmpeg',
    ['-v', 'error', ...inputs, '-filter_complex', concat, '-ac', '1', '-ar', '16000', '-f', 's16le', '-'],
    { maxBuffer: 64 << 20 },
  );
  return new Int16Array(buf.buffer, buf.byteOffset, buf.byteLength / 2);
}

/** Words of `text` spread evenly over [from, to] s (a recogniser's rough times). */
function spread(text: string, from: number, to: number): TimedWord[] {
  const ws = text.split(' ');
  const d = (to - from) / ws.length;
  return ws.map((word, i) => ({ word, start: from + i * d, end: from + (i + 1) * d, confidence: 0.9 }));
}

/** Runs `work` while a 10 ms timer ticks; the timer's worst lateness, ms, and the result. */
async function lateness<T>(work: () => Promise<T>): Promise<{ lateMs: number; result: T }> {
  let lateMs = 0;
  let last = performance.now();
  const tick = setInterval(() => {
    const now = performance.now();
    lateMs = Math.max(lateMs, now - last - 10);
    last = now;
  }, 10);
  try {
    const result = await work();
    // The tick held by a blocking call fires only after it: let it.
    await new Promise((r) => setTimeout(r, 20));
    return { lateMs, result };
  } finally {
    clearInterval(tick);
  }
}

beforeAll(() => {
  if (!existsSync(join(MEDIA_DIR, 'speech/jfk.wav')))
    throw new Error(`${MEDIA_DIR} lacks speech/jfk.wav and disfluent/mfa_um.flac`);
  // ≈ 20 s: the longest utterance the filler aligner is given is 24 s.
  clip = pcmOf('speech/jfk.wav', 'disfluent/mfa_um.flac');
  clipSec = clip.length / 16_000;
  words = [...spread(JFK_TEXT, 0, 11), ...spread(UM_TEXT, 11, clipSec)];
});

afterAll(() => disposeAlignThread());

describe('alignment thread', () => {
  it('keeps the main thread free while it aligns a 20 s utterance, with the same words', async () => {
    // Warm both decoders first: the measure is the alignment, not the model load.
    await preloadAlignThread();
    await alignWithFillers(clip, 0, 1, words.slice(0, 2));
    const inThread = await lateness(() => alignWithFillersInThread(clip, 0, clipSec, words));
    const onMain = await lateness(() => alignWithFillers(clip, 0, clipSec, words));
    // The same search on the main thread holds it for the whole process_audio call.
    expect(onMain.lateMs).toBeGreaterThan(300);
    expect(inThread.lateMs).toBeLessThan(MAX_TIMER_LATENESS_MS);
    expect(inThread.result).toBeDefined();
    expect(inThread.result).toEqual(onMain.result);
    expect(inThread.result!.filter((w) => w.word === 'um').length).toBeGreaterThan(0);
  });

  it('gives the phrase-by-phrase aligner the same answer as on this thread', async () => {
    const jfk = clip.subarray(0, 11 * 16_000);
    expect(await alignTextInThread(jfk, JFK_TEXT)).toEqual(await alignText(jfk, JFK_TEXT));
  });

  it('leaves the caller its samples (it sends a copy)', async () => {
    const before = clip.length;
    await alignWithFillersInThread(clip, 11, clipSec, words.slice(-4));
    expect(clip.length).toBe(before);
    expect(clip.buffer.byteLength).toBeGreaterThan(0);
  });

  it('brings back the aligner errors with their code', async () => {
    await expect(alignTextInThread(clip, '')).rejects.toMatchObject({ code: 'invalid_text', status: 400 });
    await expect(alignTextInThread(new Int16Array(0), 'hello')).rejects.toMatchObject({
      code: 'invalid_audio',
    });
  });

  it('stops waiting at once on abort, in flight or queued, and aligns again afterwards', async () => {
    const ctrl = new AbortController();
    const inFlight = alignWithFillersInThread(clip, 0, clipSec, words, {}, ctrl.signal);
    const queued = alignWithFillersInThread(clip, 0, clipSec, words, {}, ctrl.signal);
    const after = alignWithFillersInThread(clip, 11, clipSec, words.slice(-4));
    await new Promise((r) => setTimeout(r, 150));
    const t0 = performance.now();
    ctrl.abort();
    await expect(inFlight).rejects.toMatchObject({ code: 'aborted' });
    await expect(queued).rejects.toMatchObject({ code: 'aborted' });
    expect(performance.now() - t0).toBeLessThan(100);
    // The stuck thread was terminated; the next call starts a fresh one and is not disturbed.
    expect(await after).toEqual(await alignWithFillers(clip, 11, clipSec, words.slice(-4)));
    await expect(alignWithFillersInThread(clip, 0, 1, words, {}, AbortSignal.abort())).rejects.toMatchObject({
      code: 'aborted',
    });
  });
});
