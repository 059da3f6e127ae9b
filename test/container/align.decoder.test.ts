/**
 * The forced-alignment decoder in its own process (`asr/align-decoder.ts`, SoundSwallower built
 * natively): the main thread stays free while a 20 s utterance is aligned, the answers are the
 * very ones SoundSwallower's WebAssembly build gives (the same C library and model; the build the
 * service used before), and errors, aborts and a dead decoder come back to the caller.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TimedWord } from '../../src/contract/media.js';
import { alignText, preloadAligner } from '../../containers/media/engines/asr/align.js';
import {
  alignWithFillers,
  jsgfOf,
  grammarItems,
  OPTIONAL_FILLER_WEIGHT,
} from '../../containers/media/engines/asr/align-fillers.js';
import {
  AlignDecoder,
  alignDecoder,
  type AlignSegment,
} from '../../containers/media/engines/asr/align-decoder.js';
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

afterAll(() => alignDecoder.dispose());

const SETTINGS = { fsgusefiller: true, beam: 1e-48, pbeam: 1e-48, wbeam: 7e-29 };

/** The same search by SoundSwallower's WebAssembly build (npm `soundswallower`, a dev dependency). */
async function wasmSearch(
  pcm: Int16Array,
  search: { grammar: string } | { text: string },
): Promise<AlignSegment[]> {
  const { default: createModule } = await import('soundswallower');
  const entry = fileURLToPath(import.meta.resolve('soundswallower'));
  const ss = await createModule({ modelBase: `${join(dirname(entry), 'model')}/` } as never);
  const decoder = new ss.Decoder({ samprate: 16_000, loglevel: 'FATAL' });
  await decoder.initialize();
  // The words the service's decoder learnt (from cmudict or espeak-ng), as it learnt them.
  const said = 'text' in search ? search.text : search.grammar;
  const words = [...new Set(said.match(/[a-z']+/g) ?? [])];
  const prons = await alignDecoder.lookupWords(words);
  for (const [i, word] of words.entries())
    if (prons[i] && !decoder.lookup_word(word)) decoder.add_words([word, prons[i]]);
  for (const [k, v] of Object.entries(SETTINGS)) decoder.set_config(k, v as number);
  if ('grammar' in search) decoder.set_grammar(search.grammar);
  else decoder.set_align_text(search.text);
  decoder.start();
  decoder.process_audio(
    Float32Array.from(pcm, (v) => v / 32_768),
    false,
    true,
  );
  decoder.stop();
  return (decoder.get_alignment().w ?? []) as AlignSegment[];
}

/**
 * The same words, fillers and silences in order, each within a frame or two: the native build's
 * libm may round a last bit differently by CPU, which can move a boundary by a frame (10 ms).
 * (On this project's machines they were identical.)
 */
function expectSameSegments(native: AlignSegment[], wasm: AlignSegment[]): void {
  expect(native.map((s) => s.t)).toEqual(wasm.map((s) => s.t));
  native.forEach((s, i) => {
    expect(Math.abs(s.b - wasm[i].b)).toBeLessThanOrEqual(0.02);
    expect(Math.abs(s.d - wasm[i].d)).toBeLessThanOrEqual(0.04);
  });
}

describe('alignment decoder', () => {
  it('keeps the main thread free while it aligns a 20 s utterance, and hears the um', async () => {
    await preloadAligner(); // the measure is the alignment, not the model load
    const { lateMs, result } = await lateness(() => alignWithFillers(clip, 0, clipSec, words));
    expect(lateMs).toBeLessThan(MAX_TIMER_LATENESS_MS);
    expect(result).toBeDefined();
    expect(result!.filter((w) => w.word === 'um').length).toBeGreaterThan(0);
    expect(result!.find((w) => w.word === 'Americans,')!.start).toBeGreaterThan(1);
  });

  it('gives the segments of the WebAssembly build, for a filler grammar and for text', async () => {
    const tokens = words.map((w) => w.word.toLowerCase().replace(/[^a-z]/g, ''));
    const grammar = jsgfOf(
      grammarItems(tokens, () => true),
      OPTIONAL_FILLER_WEIGHT,
    );
    const native = await alignDecoder.align(clip, { grammar }, SETTINGS);
    expect(native.filter((s) => s.t === 'um').length).toBeGreaterThan(0);
    expectSameSegments(native, await wasmSearch(clip, { grammar }));
    const jfk = clip.subarray(0, 11 * 16_000);
    const text = JFK_TEXT.toLowerCase().replace(/[^a-z ]/g, '');
    expectSameSegments(await alignDecoder.align(jfk, { text }, SETTINGS), await wasmSearch(jfk, { text }));
  });

  it('brings back the aligner errors with their code', async () => {
    await expect(alignText(clip, '')).rejects.toMatchObject({ code: 'invalid_text', status: 400 });
    await expect(alignText(new Int16Array(0), 'hello')).rejects.toMatchObject({ code: 'invalid_audio' });
    await expect(
      alignDecoder.align(clip, { grammar: '#JSGF V1.0; grammar x; public <s> = (;' }, SETTINGS),
    ).rejects.toMatchObject({
      code: 'engine_failed',
    });
    // A refused request leaves the decoder working.
    expect(await alignText(clip.subarray(0, 11 * 16_000), JFK_TEXT)).toHaveLength(22);
  });

  it('stops waiting at once on abort, in flight or queued, and aligns again afterwards', async () => {
    const expected = await alignWithFillers(clip, 11, clipSec, words.slice(-4));
    const ctrl = new AbortController();
    const inFlight = alignWithFillers(clip, 0, clipSec, words, {}, ctrl.signal);
    const queued = alignText(clip, JFK_TEXT, ctrl.signal);
    const after = alignWithFillers(clip, 11, clipSec, words.slice(-4));
    await new Promise((r) => setTimeout(r, 150));
    const t0 = performance.now();
    ctrl.abort();
    await expect(inFlight).rejects.toMatchObject({ code: 'aborted' });
    await expect(queued).rejects.toMatchObject({ code: 'aborted' });
    expect(performance.now() - t0).toBeLessThan(100);
    // The busy decoder was killed; the next call starts a fresh one and is not disturbed.
    expect(await after).toEqual(expected);
    await expect(alignWithFillers(clip, 0, 1, words, {}, AbortSignal.abort())).rejects.toMatchObject({
      code: 'aborted',
    });
  });

  it('fails with a model error, quickly, when the decoder cannot start', async () => {
    const missing = new AlignDecoder(() => '/nonexistent/bin/python');
    await expect(missing.align(clip, { text: 'and so' }, SETTINGS)).rejects.toMatchObject({
      name: 'AsrModelError',
      code: 'model_not_found',
    });
    // A Python without the package: the child says so and exits.
    const bare = new AlignDecoder(() => 'python3');
    process.env.PYTHONNOUSERSITE = '1'; // the children inherit it: no user-site packages
    try {
      await expect(bare.preload()).rejects.toMatchObject({ name: 'AsrModelError', code: 'model_invalid' });
    } finally {
      delete process.env.PYTHONNOUSERSITE;
      bare.dispose();
    }
  });

  it('fails the search in flight when the decoder dies, and starts a new one for the next', async () => {
    const search = alignDecoder.align(
      clip,
      { text: JFK_TEXT.toLowerCase().replace(/[^a-z ]/g, '') },
      SETTINGS,
    );
    await new Promise((r) => setTimeout(r, 100));
    process.kill(alignDecoder.pid!, 'SIGKILL'); // this test's child only: other files run their own
    await expect(search).rejects.toMatchObject({ code: 'engine_failed' });
    expect(await alignText(clip.subarray(0, 11 * 16_000), JFK_TEXT)).toHaveLength(22);
  });
});
