/**
 * The default speech engine, Whisper (faster-whisper, base, int8) in the project's `.venv`, on
 * real speech: exact words of JFK with aligned times, hesitation fillers of a real disfluent
 * speaker, no words in silence or noise, abort, turns between concurrent jobs, two decodes at once, and the pocketsphinx
 * fallback (with its warning) when the weights are absent. Needs `npm run setup` (npm test
 * runs it) and ../shared/media.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAsrEngine,
  cutRepeatLoops,
  FasterWhisperEngine,
  isHallucinatedSegment,
} from '../../containers/media/engines/asr/index.js';
import {
  DEFAULT_WHISPER_MODEL_DIR,
  missingWhisperFile,
  segmentWords,
  WORKER_SCRIPT,
} from '../../containers/media/engines/asr/faster-whisper.js';
import { WhisperProcess } from '../../containers/media/engines/asr/whisper-process.js';
import { AsrDecodeError } from '../../containers/media/engines/asr/errors.js';
import type { WhisperSegment } from '../../containers/media/engines/asr/whisper-filter.js';
import { DISFLUENT_PROMPT } from '../../containers/media/engines/asr/prompts.js';
import { scanOf, SCANNED_HESITATION_MIN } from '../../containers/media/engines/asr/hesitation-scan.js';
import { DEFAULT_PYTHON_VENV } from '../../containers/media/core/venv.js';
import {
  countedFillers,
  grammarItems,
  heardFillers,
  longestFiller,
  jsgfOf,
  readAlignment,
  standsAlone,
} from '../../containers/media/engines/asr/align-fillers.js';
import { isHesitation, normalizeWord } from '../../src/analytics/speech/tokens.js';
import type { TimedWord } from '../../src/contract/media.js';
import { languageWer } from '../../bench/speech/score.js';
import { measureTokenDensities } from '../../bench/speech/token-density.js';
import { tokenDensity } from '../../containers/media/engines/asr/token-density.js';
import { wer } from '../../bench/speech/wer.js';
import { JFK_ANCHORS, MEDIA_DIR } from '../support/jfk.js';
import { configFrom } from '../../containers/media/core/config.js';

const JFK_WORDS =
  'and so my fellow americans ask not what your country can do for you ask what you can do for your country';
/** mfa_crossword.flac: "but um montreal but um but montreal forced aligner"; the ums as aligned. */
const CROSSWORD_UMS = [1.97, 5.77];

let tmp: string;
let engine: FasterWhisperEngine;

function pcmOf(args: string[]): Int16Array {
  const b = execFileSync(
    'ffmpeg',
    ['-v', 'error', ...args, '-ac', '1', '-ar', '16000', '-f', 's16le', 'pipe:1'],
    { maxBuffer: 1 << 28 },
  );
  return new Int16Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
}
const media = (rel: string) => pcmOf(['-i', join(MEDIA_DIR, rel)]);
const plain = (words: TimedWord[]) => words.map((w) => normalizeWord(w.word)).join(' ');

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'whisper-test-'));
  expect(existsSync(join(MEDIA_DIR, 'speech/jfk.wav')), `${MEDIA_DIR} (../shared/media) is needed`).toBe(
    true,
  );
  engine = new FasterWhisperEngine();
  await engine.load();
});

afterAll(() => {
  engine?.dispose();
  rmSync(tmp, { recursive: true, force: true });
});

describe('faster-whisper engine', () => {
  it('should be installed by setup and be the default engine', async () => {
    expect(
      missingWhisperFile(
        join(resolve(import.meta.dirname, '../../.venv'), 'bin', 'python'),
        resolve(import.meta.dirname, '../../.venv/models/faster-whisper-base'),
      ),
    ).toBeUndefined();
    using auto = await createAsrEngine(configFrom({}).asr);
    expect(auto.name).toBe('faster-whisper');
  });

  it('should transcribe JFK exactly, with times from alignment', async () => {
    const out = await engine.transcribe(media('speech/jfk.wav'));
    expect(out).toMatchObject({ engine: 'faster-whisper', model: 'faster-whisper-base' });
    expect(out.warnings).toBeUndefined();
    expect(plain(out.words)).toBe(JFK_WORDS);
    const errors = out.words
      .filter((w) => JFK_ANCHORS[normalizeWord(w.word)] !== undefined)
      .map((w) => Math.abs(w.start - JFK_ANCHORS[normalizeWord(w.word)]));
    errors.sort((a, b) => a - b);
    expect(errors[errors.length >> 1]).toBeLessThan(0.05);
    for (const [i, w] of out.words.entries()) {
      expect(w.end).toBeGreaterThan(w.start);
      if (i > 0) expect(w.start).toBeGreaterThanOrEqual(out.words[i - 1].start);
    }
  });

  it('should keep the hesitations of a real disfluent speaker, at their times', async () => {
    const out = await engine.transcribe(media('disfluent/mfa_crossword.flac'));
    const fillers = out.words.filter((w) => isHesitation(normalizeWord(w.word)));
    for (const at of CROSSWORD_UMS)
      expect(
        fillers.some((f) => Math.abs(f.start - at) <= 0.15),
        `an um near ${at} s in ${plain(out.words)}`,
      ).toBe(true);
    expect(fillers.length).toBeLessThanOrEqual(CROSSWORD_UMS.length + 1);
    expect(plain(out.words.filter((w) => !isHesitation(normalizeWord(w.word))))).toMatch(
      /^but montreal but but montreal/,
    );
  });

  it('should write no words in 20 s of silence and 20 s of room noise between speech', async () => {
    const jfk = media('speech/jfk.wav');
    const noise = pcmOf([
      '-f',
      'lavfi',
      '-i',
      'anoisesrc=color=pink:amplitude=0.05:duration=20:seed=7,volume=1[a];sine=f=50:d=20,volume=0.02[b];[a][b]amix',
      '-t',
      '20',
    ]);
    const parts = [jfk, new Int16Array(20 * 16_000), jfk, noise, jfk];
    const pcm = new Int16Array(parts.reduce((s, p) => s + p.length, 0));
    let at = 0;
    const spans: Array<[number, number]> = [];
    for (const [i, p] of parts.entries()) {
      if (i === 1 || i === 3) spans.push([at / 16_000 + 0.3, (at + p.length) / 16_000 - 0.3]);
      pcm.set(p, at);
      at += p.length;
    }
    // Whole clip, no VAD: the worst case, Whisper's own windows run across silence and noise.
    const out = await engine.transcribe(pcm);
    const inside = out.words.filter((w) => spans.some(([a, b]) => w.start < b && w.end > a));
    expect(inside, JSON.stringify(inside)).toEqual([]);
    expect(plain(out.words).split(' ').length).toBeGreaterThanOrEqual(3 * 22 - 2);
  });

  /** The parts one after another, `gapSec` of silence between them, with each part's span (s). */
  function sparse(parts: Int16Array[], gapSec: number) {
    const gap = new Int16Array(gapSec * 16_000);
    const all = parts.flatMap((p, i) => (i === 0 ? [p] : [gap, p]));
    const pcm = new Int16Array(all.reduce((n, p) => n + p.length, 0));
    const spans: Array<{ start: number; end: number }> = [];
    all.reduce((at, p, i) => {
      pcm.set(p, at);
      if (i % 2 === 0) spans.push({ start: at / 16_000, end: (at + p.length) / 16_000 });
      return at + p.length;
    }, 0);
    return { pcm, spans };
  }

  /**
   * No word in a silence, and each part's words at its own time: a word of its reference (of four
   * letters or more) among them, WER against the reference at most `maxPartWer`, over all parts
   * at most `maxWer`.
   */
  function expectEachAtItsTime(
    words: TimedWord[],
    spans: Array<{ start: number; end: number }>,
    references: string[],
    language: string,
    { maxWer, maxPartWer }: { maxWer: number; maxPartWer: number },
  ) {
    for (const w of words)
      expect(
        spans.some((s) => w.start >= s.start - 0.5 && w.end <= s.end + 0.5),
        JSON.stringify(w),
      ).toBe(true);
    let edits = 0;
    let refWords = 0;
    for (const [i, reference] of references.entries()) {
      const said = words.filter((w) => w.start >= spans[i].start - 0.5 && w.start < spans[i].end);
      // "cold-hearted" is "cold hearted" said.
      const heard = plain(said).replaceAll('-', ' ');
      const part = languageWer(reference, heard, language);
      expect(part.wer, `${i}: ${heard}`).toBeLessThanOrEqual(maxPartWer);
      const own = reference.split(/\s+/).map(normalizeWord);
      expect(
        heard.split(' ').some((w) => w.length >= 4 && own.includes(w)),
        `${i}: ${heard}`,
      ).toBe(true);
      edits += part.edits;
      refWords += part.refWords;
    }
    expect(edits / refWords).toBeLessThanOrEqual(maxWer);
  }

  it('should decode short sentences far apart in shared windows and time each word where it was said', async () => {
    // Sparse speech in Spanish (espeak-ng): ten sentences, 4 s of silence between them. Decoded
    // as the plan cuts it, each is a window of its own; with the silences shortened
    // (silence-pack.ts), two. (Robotic speech is also heard far better in the longer windows:
    // 60 % WER a sentence per window, 32 % packed.)
    const sentences = [
      'El tren a Madrid sale hoy una hora más tarde.',
      'Por favor, cierre la ventana antes de salir de casa.',
      'Mi hermana vive desde hace tres años en un pueblo junto al mar.',
      'Mañana el tiempo será soleado y cálido.',
      'Anoche vimos una película muy buena en el cine.',
      'La biblioteca está cerrada los domingos.',
      'El fin de semana vamos a la montaña con los niños.',
      'El médico me recomendó beber más agua.',
      'Nuestro vecino arregla su bicicleta vieja en el jardín.',
      'En otoño caen las hojas de los árboles.',
    ];
    const parts = sentences.map((text, i) => {
      const wav = join(tmp, `sparse-es-${i}.wav`);
      execFileSync('espeak-ng', ['-v', 'es', '-w', wav, text]);
      return pcmOf(['-i', wav]);
    });
    const { pcm, spans } = sparse(parts, 4);
    const out = await engine.transcribe(pcm, { speechSegments: spans });
    expect(out.language).toBe('es');
    expect(engine.lastRun?.utterances).toBeLessThan(sentences.length);
    // Robotic speech: most of a sentence may slip ("El teramán rinsa lo lludo a más tarde").
    expectEachAtItsTime(out.words, spans, sentences, 'es', { maxWer: 0.4, maxPartWer: 1 });
  });

  it('should decode sparse English a sentence per window, where Whisper hears its hesitations', async () => {
    // Packed into shared windows, the hesitations of sparse English were mostly lost
    // (docs/languages.md, "Sparse English keeps its windows"): English keeps the plan's windows.
    const clips = [
      'librivox_sns_0870',
      'librivox_sns_0880',
      'librivox_sns_0890',
      'librivox_sns_0920',
      'librivox_sns_0930',
      'goforward',
      'cards_005',
    ];
    const { pcm, spans } = sparse(
      clips.map((c) => media(`speech/${c}.wav`)),
      4,
    );
    const out = await engine.transcribe(pcm, { speechSegments: spans });
    expect(out.language).toBe('en');
    expect(engine.lastRun?.utterances).toBe(clips.length);
    const references = clips.map((c) => readFileSync(join(MEDIA_DIR, `speech/${c}.txt`), 'utf8'));
    expectEachAtItsTime(out.words, spans, references, 'en', { maxWer: 0.25, maxPartWer: 0.25 });
  });

  it('should decode a line said again and again once and keep every repeat', async () => {
    // One utterance each whose text compresses like a loop (gzip ratio ≈ 3).
    const cases = [
      [
        'speech/librivox_sns_0870.wav',
        3,
        'and mr john dashwood had then leisure to consider how much there might be prudently in his power to do for them',
      ],
      // 7 words 4 times: the text rule alone would cut it to one (`cutRepeatLoops`).
      ['speech/librivox_sns_0880.wav', 4, 'he was not an ill disposed young man'],
    ] as const;
    for (const [rel, times, once] of cases) {
      const line = media(rel);
      const pause = new Int16Array(0.4 * 16_000);
      const parts = Array.from({ length: times }, () => [line, pause]).flat();
      const pcm = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
      parts.reduce((at, p) => (pcm.set(p, at), at + p.length), 0);
      const out = await engine.transcribe(pcm);
      expect(engine.lastRun).toMatchObject({ utterances: 1 });
      // What a user sees: every repeat kept (one slip of a word per repeat at most, as int8
      // kernels of different CPUs may hear "ill-sposed" for "ill-disposed").
      const said = Array.from({ length: times }, () => once).join(' ');
      expect(wer(said, plain(out.words)).edits, plain(out.words)).toBeLessThanOrEqual(2 * times);
      expect(plain(out.words).split(' ').length).toBeGreaterThanOrEqual(said.split(' ').length - times);
    }
  });

  it('should leave no decoding loop in the output: "uh, uh, …" to the end of the window', async () => {
    // The speaker says "Montreal" and 6 "uh"s. A first decode may loop on "uh" to the end of the
    // window (it does with some CPUs' int8 kernels and not with others): whether the engine
    // decodes it again is its business; the user must see no loop either way.
    const out = await engine.transcribe(media('disfluent/mfa_uhuh.flac'));
    // How many of the six a decode keeps varies with the CPU's kernels.
    const uhs = out.words.filter((w) => isHesitation(normalizeWord(w.word)));
    expect(uhs.length, plain(out.words)).toBeLessThanOrEqual(8);
    expect(plain(out.words)).toMatch(/montreal/);
    // Each hesitation heard over its own audio, not squeezed into a moment as a loop's are.
    for (const u of uhs) expect(u.end - u.start, JSON.stringify(u)).toBeGreaterThanOrEqual(0.1);
    // A loop is decoded again without sampling, so the same audio gives the same words.
    const again = await engine.transcribe(media('disfluent/mfa_uhuh.flac'));
    expect(again.words).toEqual(out.words);
  });

  it('should transcribe German and Spanish in their language, never translated into English', async () => {
    // espeak-ng (a setup dependency) speaks the sentences: real audio the engine has never seen.
    const cases = [
      [
        'de',
        'Für die besten Aussichten auf Hongkong sollten Sie die Insel verlassen und auf den Berg fahren.',
      ],
      ['es', 'Se recomienda a los viajeros que se informen sobre los riesgos antes de salir de casa.'],
    ] as const;
    for (const [language, text] of cases) {
      const wav = join(tmp, `${language}.wav`);
      execFileSync('espeak-ng', ['-v', language, '-w', wav, text]);
      const detected = await engine.transcribe(pcmOf(['-i', wav]));
      expect(detected.language).toBe(language);
      expect(detected.language_probability).toBeGreaterThan(0.5);
      const heard = plain(detected.words);
      // Robotic speech: a word in three may slip, but the words are the language's own.
      expect(languageWer(text, heard, language).wer, heard).toBeLessThanOrEqual(0.35);
      expect(heard.split(' ')).not.toContain('the');
      for (const [i, w] of detected.words.entries())
        if (i > 0) expect(w.start).toBeGreaterThanOrEqual(detected.words[i - 1].start);
      // Set by the client: transcribed in it, no probability.
      const forced = await engine.transcribe(pcmOf(['-i', wav]), { language });
      expect(forced).toMatchObject({ language, language_probability: null });
    }
  });

  it('should transcribe a long stretch in another language in its own, and say so', async () => {
    // 30 s of real English speech, a 3 s pause, then 15 s of German (espeak-ng): one file, two languages.
    // Decoded all in English, the German came back translated ("My water … does not work anymore").
    const german =
      'Für die besten Aussichten auf Hongkong sollten Sie die Insel verlassen und auf den Berg fahren. ' +
      'Die Fahrt dauert eine halbe Stunde, und oben gibt es ein kleines Café mit einem wunderbaren Blick ' +
      'über die ganze Stadt und den Hafen. Am Abend leuchten die Hochhäuser in allen Farben.';
    const wav = join(tmp, 'stretch-de.wav');
    execFileSync('espeak-ng', ['-v', 'de', '-w', wav, german]);
    const english = ['jfk.wav', 'librivox_sns_0870.wav', 'librivox_sns_0920.wav', 'librivox_sns_0890.wav'];
    const parts = [
      ...english.map((f) => media(`speech/${f}`)),
      new Int16Array(16_000 * 3),
      pcmOf(['-i', wav]),
    ];
    const pcm = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
    parts.reduce((at, p) => (pcm.set(p, at), at + p.length), 0);
    const germanFrom = (pcm.length - parts.at(-1)!.length) / 16_000;
    // The speech as a VAD would give it: the English part and the German part.
    const speechSegments = [
      { start: 0, end: germanFrom - 3 },
      { start: germanFrom, end: pcm.length / 16_000 },
    ];
    const out = await engine.transcribe(pcm, { speechSegments });
    // Whisper's detection over the first 30 s of speech may name either language (its
    // probabilities differ by CPU); the other one's stretch is then transcribed in its own, and
    // the result's language is the one most of the speech is in: English.
    expect(out.language).toBe('en');
    expect(out.language_probability).toBeGreaterThan(0.5);
    const [, stretch, rest] =
      /is in (en|de) \(each utterance \d+ % or more\), the rest in (en|de): each part transcribed in its own language; the analytics read all of it by en's rules/.exec(
        out.warnings?.join('\n') ?? '',
      ) ?? [];
    expect(new Set([stretch, rest])).toEqual(new Set(['en', 'de']));
    const before = out.words.filter((w) => w.start < germanFrom - 0.5);
    const after = out.words.filter((w) => w.start >= germanFrom - 0.5);
    expect(plain(before)).toContain('ask what you can do for your country');
    // Robotic speech: a word in three may slip, but the words are German, not an English translation.
    expect(languageWer(german, plain(after), 'de').wer, plain(after)).toBeLessThanOrEqual(0.35);
    // Set by the client: one language for all of it, nothing switched.
    const forced = await engine.transcribe(pcm, { speechSegments, language: 'en' });
    expect(forced.warnings ?? []).toEqual([]);
  });

  it('should stop on abort and keep serving the next request', async () => {
    const jfk = media('speech/jfk.wav');
    const ctrl = new AbortController();
    const p = engine.transcribe(jfk, { signal: ctrl.signal });
    setTimeout(() => ctrl.abort(), 200);
    await expect(p).rejects.toMatchObject({ code: 'aborted' });
    const again = await engine.transcribe(jfk);
    expect(plain(again.words)).toBe(JFK_WORDS);
  });

  it("should take turns between concurrent jobs, and one job's abort leaves the other whole", async () => {
    // A long job (8 × JFK, as 8 utterances) starts first; a short one (JFK) arrives just after.
    const jfk = media('speech/jfk.wav');
    const long = new Int16Array(jfk.length * 8);
    for (let k = 0; k < 8; k++) long.set(jfk, k * jfk.length);
    const seconds = jfk.length / 16_000;
    const segments = Array.from({ length: 8 }, (_, k) => ({
      start: k * seconds + 0.2,
      end: (k + 1) * seconds - 0.2,
    }));
    const ctrl = new AbortController();
    const finished: string[] = [];
    const longRun = engine.transcribe(long, { speechSegments: segments, signal: ctrl.signal }).then(
      () => finished.push('long'),
      (err: { code?: string }) => finished.push(`long ${err.code}`),
    );
    await new Promise((r) => setTimeout(r, 100));
    const short = await engine.transcribe(jfk);
    finished.push('short');
    expect(plain(short.words)).toBe(JFK_WORDS);
    // The short job did not wait for the long one's eight utterances.
    expect(finished).toEqual(['short']);
    ctrl.abort();
    await longRun;
    expect(finished).toEqual(['short', 'long aborted']);
    expect(plain((await engine.transcribe(jfk)).words)).toBe(JFK_WORDS);
  });
});

describe('whisper worker', () => {
  /** A worker of `workers` decoding threads, and a clip of ../shared/media written as its raw PCM. */
  const worker = (workers: number) =>
    new WhisperProcess({
      python: join(DEFAULT_PYTHON_VENV, 'bin', 'python'),
      script: WORKER_SCRIPT,
      modelDir: DEFAULT_WHISPER_MODEL_DIR,
      workers,
    });
  const rawClip = (rel: string, name: string) => {
    const pcm = media(rel);
    const path = join(tmp, name);
    writeFileSync(path, Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
    return { path, seconds: pcm.length / 16_000 };
  };
  /** The segments a worker decodes for a request of one utterance. */
  const segmentsOf = async (proc: WhisperProcess, body: Record<string, unknown>) => {
    const lines: Array<Record<string, unknown>> = [];
    await proc.request(body, (line) => lines.push(line));
    return lines.find((l) => 'utterance' in l)?.segments as WhisperSegment[];
  };

  it('should decode ASR_WORKERS requests at once', async () => {
    // Two single-thread decodes at once beat one two-thread decode at a time (engines/asr/README.md,
    // ASR_WORKERS). Serially the second answer would come a whole decode after the first.
    const jfk = rawClip('speech/jfk.wav', 'jfk.raw');
    const proc = worker(2);
    try {
      await proc.start();
      const utterances = [{ start: 0, end: jfk.seconds }];
      const body = { pcm: jfk.path, utterances, beam_size: 5, temperature: [0] };
      const t0 = performance.now();
      const answered = await Promise.all(
        [0, 1].map(() => proc.request(body, () => {}).then(() => performance.now() - t0)),
      );
      const [first, second] = answered.sort((a, b) => a - b);
      expect(second - first).toBeLessThan(first / 2);
    } finally {
      proc.dispose();
    }
  });

  it('should answer a request it cannot decode with an error that is not retried, and keep serving', async () => {
    const jfk = rawClip('speech/jfk.wav', 'bad.raw');
    const proc = worker(1);
    try {
      await proc.start();
      const body = { pcm: jfk.path, utterances: [{ start: 0, end: 2 }], temperature: [0] };
      // faster-whisper raises on a language it does not know (the engine checks first; the worker must not hang).
      const failed = await proc.request({ ...body, language: 'xx' }, () => {}).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(AsrDecodeError);
      expect((failed as AsrDecodeError).status).toBe(422);
      expect((failed as Error).message).toMatch(
        /^Whisper failed: ValueError: 'xx' is not a valid language code/,
      );
      const lines: Array<Record<string, unknown>> = [];
      await proc.request({ ...body, language: 'en' }, (line) => lines.push(line));
      expect(lines.some((l) => 'utterance' in l)).toBe(true);
    } finally {
      proc.dispose();
    }
  });

  it('should say where the decode window that wrote each segment began', async () => {
    // The engine drops invented text of a re-decoded tail by it (`isDoubtedTail`).
    const jfk = rawClip('speech/jfk.wav', 'window.raw');
    const proc = worker(1);
    try {
      await proc.start();
      const utterance = { start: 0.5, end: jfk.seconds };
      const body = { pcm: jfk.path, utterances: [utterance], beam_size: 5, temperature: [0], language: 'en' };
      const segments = await segmentsOf(proc, body);
      expect(segments.length).toBeGreaterThan(0);
      expect(segments[0].window_start).toBe(utterance.start);
      for (const [i, s] of segments.entries()) {
        expect(s.window_start).toBeGreaterThanOrEqual(
          i === 0 ? utterance.start : segments[i - 1].window_start!,
        );
        expect(s.window_start).toBeLessThanOrEqual(s.start + 0.001);
      }
    } finally {
      proc.dispose();
    }
  });

  it("should bound each decode by its request's tokens per second, decode on after the bound, and skip a short rest", async () => {
    // The engine raises the bound for scripts that take more tokens (`maxTokensPerSecond`).
    const jfk = rawClip('speech/jfk.wav', 'bound.raw');
    const proc = worker(1);
    try {
      await proc.start();
      const utterance = { start: 0.5, end: jfk.seconds };
      const body = { pcm: jfk.path, utterances: [utterance], beam_size: 5, temperature: [0], language: 'en' };
      const decodeWith = (extra: Record<string, unknown>) => segmentsOf(proc, { ...body, ...extra });
      // English's bound leaves JFK's ~30 tokens whole: one decode window.
      const whole = await decodeWith({});
      expect(whole.every((s) => s.window_start === utterance.start)).toBe(true);
      // One token a second stops the first window early; Whisper decodes the rest in a later one.
      const bounded = await decodeWith({ max_tokens_per_sec: 1 });
      const firstWindow = bounded.filter((s) => s.window_start === utterance.start);
      expect(firstWindow.length).toBeLessThan(bounded.length);
      expect(normalizeWord(bounded.at(-1)!.text.trim().split(' ').at(-1)!)).toBe('country');
      // A rest of at most `max_skipped_tail_sec` after the window is not decoded (the engine asks
      // for `MAX_TAIL_SEC`: a later window over a short rest is mostly invented text it drops,
      // `isDoubtedTail`, at the cost of a whole window). Longer than any rest: the first window alone.
      const skipped = await decodeWith({ max_tokens_per_sec: 1, max_skipped_tail_sec: jfk.seconds });
      expect(skipped.map((s) => s.text)).toEqual(firstWindow.map((s) => s.text));
      // Shorter than every rest: all of them decoded, as without it.
      const kept = await decodeWith({ max_tokens_per_sec: 1, max_skipped_tail_sec: 0.01 });
      expect(kept.map((s) => s.text)).toEqual(bounded.map((s) => s.text));
    } finally {
      proc.dispose();
    }
  });

  it('should bound no measured language below the tokens its words take', () => {
    // Article 1 of the UDHR in each language, counted by the installed model's own tokenizer.
    const measured = measureTokenDensities();
    expect(measured.length).toBeGreaterThanOrEqual(30);
    for (const { language, ratio } of measured) {
      expect(tokenDensity(language), language).toBeGreaterThanOrEqual(ratio);
      expect(tokenDensity(language) - ratio, language).toBeLessThan(0.15);
    }
  });

  it('should encode a window once per file: read by a detection or an encode request, then by its decodes', async () => {
    // The engine reads a long utterance as a detection window of its own
    // (`ownDetectionWindow`), and a job may decode an utterance again (without the prompt, in
    // another likely language): the worker reads the file's recent encoder outputs again.
    const jfk = rawClip('speech/jfk.wav', 'cache.raw');
    const proc = worker(1);
    const utterance = { start: 0.3, end: jfk.seconds };
    // No later window (Whisper may stop before the audio and decode the rest in a new one): the
    // utterance's own window is the one encoded.
    const decode = {
      utterances: [utterance],
      beam_size: 5,
      temperature: [0],
      language: 'en',
      max_skipped_tail_sec: jfk.seconds,
    };
    const run = async (body: Record<string, unknown>) => {
      const lines: Array<Record<string, unknown>> = [];
      const done = await proc.request(body, (line) => lines.push(line));
      const segments = lines.find((l) => 'utterance' in l)?.segments as WhisperSegment[] | undefined;
      return { passes: done.encoder_passes, line: lines[0], text: segments?.map((s) => s.text).join('') };
    };
    try {
      await proc.start();
      const detected = await run({
        detect: true,
        pcm: jfk.path,
        utterances: [],
        windows: 1,
        own_window: utterance,
      });
      expect(detected.line.language).toBe('en');
      expect(detected.passes).toBe(1);
      const reused = await run({ ...decode, pcm: jfk.path });
      expect(reused.passes).toBe(0);
      expect((await run({ ...decode, pcm: jfk.path, initial_prompt: DISFLUENT_PROMPT })).passes).toBe(0);
      // An encode request (sent while the language is detected) leaves its window for the decode.
      const part = { start: 0.3, end: 6 };
      expect((await run({ encode: true, pcm: jfk.path, utterances: [part] })).passes).toBe(1);
      expect((await run({ ...decode, pcm: jfk.path, utterances: [part] })).passes).toBe(0);
      // The same audio in another file is encoded anew (one job never reads another's windows),
      // and the words are the same as from the window read again.
      const other = rawClip('speech/jfk.wav', 'cache-other.raw');
      const fresh = await run({ ...decode, pcm: other.path });
      expect(fresh.passes).toBe(1);
      expect(reused.text).toBe(fresh.text);
      // JFK's words from the start: with later windows off, the decode ends where Whisper ends
      // the window's first pass, which depends on the CPU's kernels (CTranslate2's generic path
      // stopped after "ask what you can").
      const words = fresh.text!.trim().split(/\s+/).map(normalizeWord);
      expect(words.length).toBeGreaterThanOrEqual(10);
      const start = JFK_WORDS.split(' ').slice(0, words.length).join(' ');
      expect(wer(start, words.join(' ')).wer).toBeLessThan(0.15);
    } finally {
      proc.dispose();
    }
  });

  it('should scan for the hesitations Whisper heard in a request of its own, on the same words', async () => {
    const proc = worker(1);
    const linesOf = async (request: Record<string, unknown>) => {
      const lines: Array<Record<string, unknown>> = [];
      await proc.request(request, (line) => lines.push(line));
      return lines.find((l) => 'utterance' in l);
    };
    const scanOfClip = async (rel: string, endSec?: number) => {
      const clip = rawClip(rel, 'scan.raw');
      const answer = await linesOf({
        scan: true,
        pcm: clip.path,
        utterances: [{ start: 0, end: endSec ?? clip.seconds }],
        language: 'en',
        initial_prompt: DISFLUENT_PROMPT,
      });
      return answer?.scan;
    };
    try {
      await proc.start();
      // A decode answers with its segments only: the scan is asked for apart.
      const clip = rawClip('speech/jfk.wav', 'decode.raw');
      const decoded = await linesOf({
        pcm: clip.path,
        utterances: [{ start: 0, end: clip.seconds }],
        beam_size: 5,
        temperature: [0],
        language: 'en',
        initial_prompt: DISFLUENT_PROMPT,
        word_timestamps: false,
      });
      expect(decoded?.segments).toBeInstanceOf(Array);
      expect(decoded?.scan).toBeUndefined();
      const jfk = scanOf(await scanOfClip('speech/jfk.wav'));
      expect(jfk.length).toBeGreaterThan(15);
      for (const w of jfk) expect(w.hesitation >= 0 && w.hesitation <= 1, w.word).toBe(true);
      expect(wer(JFK_WORDS, jfk.map((w) => normalizeWord(w.word)).join(' ')).wer).toBeLessThan(0.15);
      // A speaker who says "um" twice: Whisper's scan finds at least one of them likely.
      const crossword = scanOf(await scanOfClip('disfluent/mfa_crossword.flac'));
      expect(crossword.some((w) => w.hesitation >= SCANNED_HESITATION_MIN)).toBe(true);
      // An utterance too short for the prompt's tokens under its token cap (a VAD segment of "And
      // so"): the scan still answers, rather than failing the whole transcription.
      expect(await scanOfClip('speech/jfk.wav', 0.8)).toBeInstanceOf(Array);
    } finally {
      proc.dispose();
    }
  });
});

describe('fallback', () => {
  it('should use pocketsphinx and say so in every output when the weights are absent', async () => {
    using asr = await createAsrEngine(configFrom({ WHISPER_MODEL_DIR: join(tmp, 'no-weights') }).asr);
    expect(asr.name).toBe('pocketsphinx');
    const out = await asr.transcribe(media('speech/goforward.wav'));
    expect(out.engine).toBe('pocketsphinx');
    expect(out.model).toBe('pocketsphinx-en-us');
    expect(out.warnings?.join(' ')).toMatch(/fallback engine pocketsphinx.*no-weights/);
    expect(out.words.length).toBeGreaterThan(1);
  });
});

describe('hallucination guards (pure)', () => {
  it('should cut phrase loops but keep real repeats and hesitation runs', () => {
    expect(cutRepeatLoops('thank you thank you thank you'.split(' '))).toEqual([0, 1]);
    expect(cutRepeatLoops('no no no'.split(' '))).toEqual([0, 1, 2]);
    expect(cutRepeatLoops('uh uh uh uh uh'.split(' '))).toEqual([0, 1, 2, 3, 4]);
    expect(cutRepeatLoops('I said go go go go go now'.split(' '))).toEqual([0, 1, 2, 7]);
  });

  it('should share a segment by letters when Whisper gave no word times', () => {
    const words = segmentWords({
      text: ' Go forward, um, ten.',
      start: 1,
      end: 3,
      avg_logprob: -0.1,
      no_speech_prob: 0,
      compression_ratio: 1,
      words: [],
    });
    expect(words.map((w) => w.word)).toEqual(['Go', 'forward,', 'um,', 'ten.']);
    expect(words[0].start).toBe(1);
    expect(words.at(-1)!.end).toBeCloseTo(3, 3);
    expect(words[1].end - words[1].start).toBeGreaterThan(words[0].end - words[0].start);
    expect(words[0].confidence).toBeCloseTo(Math.exp(-0.1), 3);
  });

  it("should drop segments Whisper's scores mark as not speech", () => {
    const seg = { text: ' Thank you.', avg_logprob: -0.3, no_speech_prob: 0.1, compression_ratio: 1.1 };
    expect(isHallucinatedSegment(seg)).toBe(false);
    expect(isHallucinatedSegment({ ...seg, no_speech_prob: 0.8, avg_logprob: -1.2 })).toBe(true);
    expect(isHallucinatedSegment({ ...seg, avg_logprob: -1.8 })).toBe(true);
    expect(isHallucinatedSegment({ ...seg, text: ' I know. '.repeat(20), compression_ratio: 5 })).toBe(true);
    expect(
      isHallucinatedSegment({ ...seg, text: ' Montreal,' + ' uh,'.repeat(20), compression_ratio: 5 }),
    ).toBe(false);
  });
});

describe('filler grammar (pure)', () => {
  const items = grammarItems(['So,', 'um,', 'uh', 'well-known', 'Zyx'], (t) => t !== 'zyx');

  it('should make one filler run of consecutive hesitations and drop unknown tokens', () => {
    expect(items).toEqual([
      { kind: 'token', token: 'so', word: 0 },
      { kind: 'fillers', word: 1 },
      { kind: 'token', token: 'well', word: 3 },
      { kind: 'token', token: 'known', word: 3 },
    ]);
    // Optional fillers before the first word and between words only, never inside "well-known"
    // or beside a required run.
    expect(jsgfOf(items, 0.01)).toContain('public <s> = [<o>] so <f> well known;');
    const more = grammarItems(['So', 'well-known', 'now'], () => true);
    expect(jsgfOf(more, 0.01)).toContain('public <s> = [<o>] so [<o>] well known [<o>] now;');
    expect(jsgfOf(more, 0.01, (word) => word === 1)).toContain('public <s> = [<o>] so well known [<o>] now;');
    expect(jsgfOf(more)).not.toContain('<o>');
    // A written hesitation may be heard as "hmm"; an optional one only as "um" or "uh".
    expect(jsgfOf(more, 0.01)).toContain('<f> = (um | uh | hmm)+;');
    expect(jsgfOf(more, 0.01)).toContain('<o> = /0.990000/ <NULL> | /0.010000/ <g>;');
    expect(jsgfOf(more, 0.01)).toContain('<g> = (um | uh)+;');
    // A run that starts the utterance has no optional run before it.
    expect(
      jsgfOf(
        grammarItems(['Um,', 'so'], () => true),
        0.01,
      ),
    ).toContain('public <s> = <f> so;');
  });

  it('should count one hesitation for a long one heard in two touching pieces, two for two', () => {
    const seg = (t: string, b: number, d: number) => ({ t, b, d, p: 0 });
    // "euh" heard as "uh" + "uh", each too short alone: one hesitation over both.
    expect(countedFillers([seg('uh', 1, 0.12), seg('uh', 1.12, 0.13)])).toEqual([seg('uh', 1, 0.25)]);
    // "uh, um" of 0.5 s each, touching: two hesitations.
    expect(countedFillers([seg('uh', 1, 0.5), seg('um', 1.5, 0.5)])).toHaveLength(2);
    // A short piece after a pause is its own sound, too short to count.
    expect(countedFillers([seg('uh', 1, 0.5), seg('uh', 1.7, 0.15)])).toEqual([seg('uh', 1, 0.5)]);
  });

  it('should count one hesitation where Whisper wrote one and the aligner heard only short pieces', () => {
    const seg = (t: string, b: number, d: number) => ({ t, b, d, p: 0 });
    const token = (word: number, b: number, d = 0.3) => ({
      item: { kind: 'token' as const, token: 'w', word },
      segs: [seg('w', b, d)],
    });
    const run = (word: number, ...segs: Array<ReturnType<typeof seg>>) => ({
      item: { kind: 'fillers' as const, word },
      segs,
    });
    const short = [seg('uh', 1, 0.06), seg('um', 1.1, 0.09)];
    expect(longestFiller(short)).toEqual(seg('um', 1.1, 0.09));
    expect(longestFiller([])).toBeUndefined();
    // Written (word 1), heard only short: one, the longest piece.
    expect(heardFillers([token(0, 0.5), run(1, ...short), token(2, 1.3)])[1]).toEqual([seg('um', 1.1, 0.09)]);
    // Optional (word -1): short pieces are breaths or clicks.
    expect(heardFillers([token(0, 0.5), run(-1, ...short), token(2, 1.3)])[1]).toEqual([]);
    // Written, but the aligner counted a hesitation a word later: it heard that one there.
    const beside = heardFillers([
      token(0, 0.5),
      run(1, ...short),
      token(2, 1.3),
      run(-1, seg('um', 1.6, 0.8)),
    ]);
    expect(beside[1]).toEqual([]);
    expect(beside[3]).toEqual([seg('um', 1.6, 0.8)]);
    // Written with a long piece: only what is long enough, as for any run.
    expect(heardFillers([run(0, seg('uh', 1, 0.06), seg('um', 1.5, 0.3))])[0]).toEqual([seg('um', 1.5, 0.3)]);
    // Optional, two long pieces apart: one hesitation heard in two pieces, the longer counts.
    const twoPieces = [seg('uh', 1, 0.34), seg('um', 1.67, 0.35)];
    expect(heardFillers([token(0, 0.5), run(-1, ...twoPieces), token(2, 2.1)])[1]).toEqual([twoPieces[1]]);
    // Written, the same pieces: Whisper wrote what the aligner heard, and both count.
    expect(heardFillers([token(0, 0.5), run(1, ...twoPieces), token(2, 2.1)])[1]).toEqual(twoPieces);
  });

  it('should read the fillers heard back onto the items, or refuse a result off the grammar', () => {
    const seg = (t: string, b: number) => ({ t, b, d: 0.3, p: 1 });
    const ok = readAlignment(items, [
      seg('<sil>', 0),
      seg('so', 0.3),
      seg('uh', 0.7),
      seg('(NULL)', 1),
      seg('um', 1.1),
      seg('well', 1.5),
      seg('um', 1.8),
      seg('known(2)', 2.2),
    ]);
    expect(ok?.map((r) => [r.item.kind, r.segs.map((s) => s.t).join(' ')])).toEqual([
      ['token', 'so'],
      ['fillers', 'uh um'],
      ['token', 'well'],
      ['fillers', 'um'],
      ['token', 'known'],
    ]);
    expect(readAlignment(items, [seg('so', 0.3), seg('well', 1.5)])).toBeUndefined();
  });

  it('should let the acoustics choose between a word that stands alone and a filler run', () => {
    const words = ['arrangements?', 'What?', 'She', 'has', 'Oh.', 'Yeah', 'right.', 'Really?'];
    expect(words.map((_, i) => standsAlone(words, i))).toEqual([
      false,
      true,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(standsAlone(['Yes.'], 0)).toBe(true); // an utterance of one word
    const alone = grammarItems(['arrangements?', 'What?', 'She'], () => true);
    expect(alone[1]).toEqual({ kind: 'tokenOrFillers', token: 'what', word: 1 });
    expect(jsgfOf(alone, 0.01)).toContain('public <s> = [<o>] arrangements (what | <f>) she;');
    const seg = (t: string, b: number) => ({ t, b, d: 0.3, p: 1 });
    const asWord = readAlignment(alone, [seg('arrangements', 0), seg('what', 1), seg('she', 2)]);
    expect(asWord?.map((r) => r.item.kind)).toEqual(['token', 'token', 'token']);
    const asFiller = readAlignment(alone, [seg('arrangements', 0), seg('uh', 1), seg('she', 2)]);
    expect(asFiller?.map((r) => [r.item.kind, r.item.word])).toEqual([
      ['token', 0],
      ['fillers', 1],
      ['token', 2],
    ]);
    expect(readAlignment(alone, [seg('arrangements', 0), seg('she', 2)])).toBeUndefined();
  });
});
