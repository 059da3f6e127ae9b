/**
 * @module containers/media/engines/tts/piper
 * The neural `TtsEngine` of voice_generator 0: a Piper (VITS) voice run by onnxruntime-node in
 * this process. Text is normalised (`normalize.ts`), split into sentences (`sentences.ts`),
 * phonemised by espeak-ng exactly as Piper does (`phonemes.ts`), and synthesised one sentence
 * at a time, so memory is bounded by the longest sentence and the output is streamed as chunks
 * of PCM; the silences between chunks follow the punctuation.
 *
 * The model session is loaded once per voice file and kept warm (a 63 MB VITS model takes about
 * a second to load); it is never disposed while the process runs. onnxruntime's `run` executes
 * on its own threads, so the event loop stays free; an abort is honoured between sentences.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type * as Ort from 'onnxruntime-node';
import type { SynthesisRequest, SynthesisResult, SynthesisStream, TtsEngine } from './engine.js';
import { TtsError } from './errors.js';
import { normalizeText } from './normalize.js';
import { phonemeIds, sentencePhonemes, type PhonemeIdMap } from './phonemes.js';
import { splitSpeech } from './sentences.js';
import { pcmToWav } from './wav.js';
import { mediaConfig } from '../../core/config.js';

/** The voice installed by containers/media/python/install_models.py. */
export const PIPER_DEFAULT_VOICE = 'en_US-joe-medium';

export interface PiperVoiceConfig {
  audio: { sample_rate: number };
  espeak: { voice: string };
  inference: { noise_scale: number; length_scale: number; noise_w: number };
  phoneme_type: string;
  phoneme_id_map: PhonemeIdMap;
  num_speakers: number;
}

export interface PiperOptions {
  /** Directory holding `<voice>.onnx` and `<voice>.onnx.json`. Required. */
  voiceDir: string;
  /** Voice file stem. Default 'en_US-joe-medium'. */
  voice?: string;
  /** Speaking-rate factor (>1 slower). Default: the voice's own (1.0). */
  lengthScale?: number;
  /** VITS sampling noise (variety of each take). Default `PIPER_NOISE_SCALE` (the voice's own is 0.667). */
  noiseScale?: number;
  /** Phoneme-duration noise. Default `PIPER_NOISE_W` (the voice's own is 0.8). */
  noiseW?: number;
  /** Silence before the first sound, s: players and encoders eat the first few ms. Default 0.08. */
  leadSec?: number;
  /** Silence after the last sound, s: the final phoneme decays fully. Default 0.15. */
  tailSec?: number;
  /** onnxruntime intra-op threads. Default `PIPER_THREADS` (env), else {@link PIPER_THREADS_DEFAULT}. */
  threads?: number;
}

/**
 * Sampling noise of the acoustic frames and of the phoneme durations, below the voice's own
 * 0.667 / 0.8: less noise articulates every phoneme closer to its learnt mean, so fewer
 * consonants come out weak and fewer odd pauses are heard as fillers. Chosen on the held-out
 * sentences of bench/tts (10 takes each, Whisper base beam 5): round-trip WER 6.1 ± 0.3 % at the
 * voice's values, 5.2 ± 0.2 % at 0.333 / 0.333.
 */
export const PIPER_NOISE_SCALE = 0.333;
export const PIPER_NOISE_W = 0.333;

/**
 * onnxruntime intra-op threads of the voice: 2. The speech step runs before the render, with the
 * second core idle: 2 threads speak markedly faster than 1 for little more CPU (threads do not
 * spin between ops; figures in docs/benchmarks.md).
 */
export const PIPER_THREADS_DEFAULT = 2;
/** `PIPER_THREADS` (1–8, default `PIPER_THREADS_DEFAULT`: core/config). */
const threadsFromEnv = () => mediaConfig().tts.piperThreads;

/** Peak level of each sentence after normalisation (Piper normalises each sentence to full scale; a little headroom keeps AAC from clipping). */
const PEAK = 0.9;

interface LoadedVoice {
  config: PiperVoiceConfig;
  session: Ort.InferenceSession;
  ort: typeof Ort;
}

const loaded = new Map<string, Promise<LoadedVoice>>();

/** Loads (once per process) a voice's config and ONNX session. */
export function loadPiperVoice(
  voiceDir: string,
  voice = PIPER_DEFAULT_VOICE,
  threads = threadsFromEnv(),
): Promise<LoadedVoice> {
  const model = join(voiceDir, `${voice}.onnx`);
  let p = loaded.get(model);
  if (!p) {
    p = (async () => {
      const config = JSON.parse(await readFile(`${model}.json`, 'utf8')) as PiperVoiceConfig;
      if (config.phoneme_type !== 'espeak')
        throw new TtsError(
          'tts_voice_invalid',
          `${voice}: phoneme_type ${config.phoneme_type} is not supported (espeak only)`,
          500,
        );
      const ort = (await import('onnxruntime-node')) as typeof Ort;
      const session = await ort.InferenceSession.create(model, {
        intraOpNumThreads: threads,
        graphOptimizationLevel: 'all',
        // No spinning between ops: on a busy machine a spinning thread only steals the CPU it waits for.
        extra: { session: { intra_op: { allow_spinning: '0' } } },
      });
      return { config, session, ort };
    })();
    loaded.set(model, p);
    p.catch(() => loaded.delete(model)); // a failed load may be retried (e.g. after a fix)
  }
  return p;
}

/** One piece of the output: PCM samples (mono s16) of a sentence or of a silence. */
export type PcmChunk = Int16Array;

export interface PiperEngine extends TtsEngine {
  /** Sample rate of the voice (22,050 Hz for medium voices). */
  sampleRateHz(): Promise<number>;
  /** Streams the speech of `text` as PCM chunks, sentence by sentence. */
  stream(text: string, signal?: AbortSignal): AsyncGenerator<PcmChunk>;
  synthesizeStream(req: SynthesisRequest): Promise<SynthesisStream>;
}

/**
 * @example const tts = createPiperEngine({ voiceDir: '.venv/models/piper-en_US-joe-medium' });
 * const { wav } = await tts.synthesize({ text: 'Hello there.' });
 */
export function createPiperEngine({
  voiceDir,
  voice = PIPER_DEFAULT_VOICE,
  lengthScale,
  noiseScale,
  noiseW,
  leadSec = 0.08,
  tailSec = 0.15,
  threads = threadsFromEnv(),
}: PiperOptions): PiperEngine {
  const load = () =>
    loadPiperVoice(voiceDir, voice, threads).catch((err) => {
      throw err instanceof TtsError
        ? err
        : new TtsError(
            'tts_voice_unavailable',
            `Piper voice ${voice} could not be loaded: ${(err as Error).message}`,
            503,
            { cause: err },
          );
    });

  async function* stream(text: string, signal?: AbortSignal): AsyncGenerator<PcmChunk> {
    const { config, session, ort } = await load();
    const rate = config.audio.sample_rate;
    const silence = (sec: number) => new Int16Array(Math.round(sec * rate));
    const chunks = splitSpeech(normalizeText(text));
    if (chunks.length === 0)
      throw new TtsError('tts_text_missing', 'text: nothing speakable after normalisation', 400);
    const scales = new Float32Array(inferenceScales(config, { noiseScale, lengthScale, noiseW }));
    // The next sentence's phonemes are prepared while the current one is synthesised.
    let next = sentencePhonemes(chunks[0].text, config.espeak.voice, signal);
    next.catch(() => {}); // awaited after the first yield, which a consumer may never ask for
    yield silence(leadSec);
    for (let i = 0; i < chunks.length; i++) {
      const phonemes = await next;
      if (i + 1 < chunks.length) {
        next = sentencePhonemes(chunks[i + 1].text, config.espeak.voice, signal);
        next.catch(() => {}); // awaited in the next round
      }
      signal?.throwIfAborted();
      const { ids } = phonemeIds(phonemes, config.phoneme_id_map);
      const input = new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, ids.length]);
      const lengths = new ort.Tensor('int64', BigInt64Array.from([BigInt(ids.length)]), [1]);
      const feeds: Record<string, Ort.Tensor> = {
        input,
        input_lengths: lengths,
        scales: new ort.Tensor('float32', scales, [3]),
      };
      if (config.num_speakers > 1) feeds.sid = new ort.Tensor('int64', BigInt64Array.from([0n]), [1]);
      let audio: Float32Array;
      try {
        const out = await session.run(feeds);
        audio = out.output.data as Float32Array;
      } catch (err) {
        throw new TtsError('tts_failed', `Piper synthesis failed: ${(err as Error).message}`, 500, {
          cause: err,
        });
      }
      yield toPcm16(audio);
      const pause = chunks[i].pauseAfterSec;
      yield silence(i + 1 < chunks.length ? pause : tailSec);
    }
  }

  return {
    name: 'piper',
    stream,
    sampleRateHz: async () => (await load()).config.audio.sample_rate,
    async synthesizeStream({ text, signal }: SynthesisRequest): Promise<SynthesisStream> {
      const rate = (await load()).config.audio.sample_rate;
      // The lead silence and the first sentence before resolving: a request's errors (no speakable
      // text, a failing model) are then answered with a status, not a cut-off stream.
      const pcm = await primed(stream(text, signal), 2);
      return { sampleRateHz: rate, engine: 'piper', voiceId: voice, pcm };
    },
    async synthesize({ text, signal }: SynthesisRequest): Promise<SynthesisResult> {
      const rate = (await load()).config.audio.sample_rate;
      const parts: Buffer[] = [];
      for await (const pcm of stream(text, signal))
        parts.push(Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
      const pcm = Buffer.concat(parts);
      return {
        wav: pcmToWav(pcm, rate),
        sampleRateHz: rate,
        durationSec: pcm.length / 2 / rate,
        engine: 'piper',
        voiceId: voice,
      };
    },
  };
}

/**
 * Pure: the model's `scales` input, [noise_scale, length_scale, noise_w]: the options given, else
 * `PIPER_NOISE_SCALE` / the voice's own length scale / `PIPER_NOISE_W`.
 */
export function inferenceScales(
  config: Pick<PiperVoiceConfig, 'inference'>,
  { noiseScale, lengthScale, noiseW }: Pick<PiperOptions, 'noiseScale' | 'lengthScale' | 'noiseW'>,
): [number, number, number] {
  return [
    noiseScale ?? PIPER_NOISE_SCALE,
    lengthScale ?? config.inference.length_scale,
    noiseW ?? PIPER_NOISE_W,
  ];
}

/** Pulls the first `n` items of `source` now (their errors are thrown here) and yields them, then the rest. */
export async function primed<T>(source: AsyncGenerator<T>, n: number): Promise<AsyncGenerator<T>> {
  const head: T[] = [];
  for (let i = 0; i < n; i++) {
    const r = await source.next();
    if (r.done) break;
    head.push(r.value);
  }
  return (async function* replay() {
    try {
      yield* head;
      yield* source;
    } finally {
      await source.return(undefined); // a consumer that stops early ends the synthesis too
    }
  })();
}

/** Pure: float audio → s16 with the sentence's peak at `PEAK` (gain capped: silence stays silence). */
export function toPcm16(audio: Float32Array): Int16Array {
  let peak = 0;
  for (const v of audio) peak = Math.max(peak, Math.abs(v));
  const gain = (PEAK * 32767) / Math.max(peak, 0.01);
  const out = new Int16Array(audio.length);
  for (let i = 0; i < audio.length; i++)
    out[i] = Math.max(-32768, Math.min(32767, Math.round(audio[i] * gain)));
  return out;
}
