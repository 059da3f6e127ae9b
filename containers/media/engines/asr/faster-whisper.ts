/**
 * @module containers/media/engines/asr/faster-whisper
 * The default recogniser: OpenAI Whisper (base, CTranslate2 int8 on CPU) through faster-whisper
 * in a warm Python child (`whisper-process.ts`, `containers/media/python/asr_worker.py`).
 *
 * - Only VAD speech is decoded, one utterance (padded, merged, ≤ 28 s: one Whisper window) per
 *   request, `workers` of them at once on one CPU thread each; the worker reads each utterance
 *   from a temp file, so memory does not grow with length.
 * - Each utterance is decoded once (beam search at temperature 0); only a decode that loops
 *   (`isDecodingLoop`: repetitive text whose repeats Whisper cannot place in the audio) is
 *   decoded again, with a repetition penalty (`LOOP_REPETITION_PENALTY`), never by sampling: the
 *   same audio gives the same words. Speech that really repeats is kept as decoded: OpenAI's
 *   ladder of warmer temperatures made 5–6 decodes of each window of a looped 8 s line and kept a
 *   worse one.
 * - Whisper's scores and a loop detector drop invented words (`whisper-filter.ts`).
 * - A prompt written with disfluencies makes Whisper keep "um"/"uh", which it otherwise tidies
 *   away (bench/speech; docs/benchmarks.md "Speech recognition, measured").
 * - Word times come from forced alignment of Whisper's words to the audio (SoundSwallower,
 *   `align-fillers.ts`, which also counts the hesitations), utterance by utterance in the
 *   aligner's own process (`align-decoder.ts`) while the worker decodes the next one. Whisper's own word times (cross-attention, 70 ms median error on
 *   clean speech, 880 ms on the disfluent clips: bench/speech) are not even computed by default.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AsrOutput, TimedWord, TimeSegment } from '../../../../src/contract/media.js';
import { pythonScript, venvModelDir, venvPython } from '../../core/venv.js';
import { WORK_DIR_PREFIX } from '../../core/stale-work-dirs.js';
import { alignTokens } from './align-tokens.js';
import { alignText } from './align.js';
import { alignWithFillers } from './align-fillers.js';
import { packSilences, unpackOutput, type PackOptions } from './silence-pack.js';
import type { AsrEngine, AsrRunStats, TranscribeOptions } from './port.js';
import { AsrAbortedError, AsrEngineError, AsrModelError } from './errors.js';
import { pcmToBytes, readPeakRss, slicePcm } from './pcm.js';
import { decodeOrder, planUtterances, speechSecondsIn } from './segments.js';
import {
  cutInWordLoop,
  cutRepeatLoops,
  hasDecodingLoop,
  isHallucinatedSegment,
  withoutDoubtedTails,
  isHeardRepetition,
  isHesitation,
  leavesSpeechUnwritten,
  lexicalWords,
  MAX_TAIL_SEC,
  maySkipSpeech,
  type WhisperSegment,
} from './whisper-filter.js';
import { scanOf, withScannedHesitations, type ScanWord } from './hesitation-scan.js';
import { isWrittenWithoutSpaces } from '../../../../src/analytics/speech/languages.js';
import { WhisperProcess, type WorkerLine } from './whisper-process.js';
import { DISFLUENT_PROMPT, promptFor } from './prompts.js';
import { maxTokensPerSecond } from './token-density.js';
import {
  decodeScore,
  detectionWarnings,
  detectionWindows,
  mainLanguage,
  MIN_STRETCH_SEC,
  otherLanguageStretches,
  ownDetectionWindow,
  speechBesides,
  encodedWhileDetecting,
  pickDecode,
  probabilityOf,
  speechSeconds,
  trialLanguages,
  TRIAL_MARGIN,
  type HeardLanguages,
  type LanguageDetection,
  type LanguageStretch,
} from './language.js';

/** The model install_models.py verifies and installs: Whisper base. */
export const WHISPER_MODEL_NAME = 'faster-whisper-base';
/** Default model directory, in the default venv. */
export const DEFAULT_WHISPER_MODEL_DIR = venvModelDir(WHISPER_MODEL_NAME);
export const WORKER_SCRIPT = pythonScript('asr_worker.py');

export { DISFLUENT_PROMPT } from './prompts.js';
/** One Whisper window is 30 s; utterances stay a little shorter so padding fits, seconds. */
const MAX_UTTERANCE_SEC = 28;
/**
 * Audio decoded after each stretch of speech the VAD found, seconds: short, since after
 * Whisper's last word it invents text (`isDoubtedTail`).
 */
export const UTTERANCE_PADDING_SEC = 0.2;
/**
 * Audio decoded before each stretch of speech, seconds. The VAD starts speech late on a soft
 * onset: a caller's "ah" before the first word on a telephone line, which the aligner hears only
 * inside the utterance, and the first words of a sentence ("Las arenas son blanquecinas…" came
 * back as "En las somblanquecinas…" with 0.2 s). Chosen on English's tune parts, then taken for
 * every language (docs/languages.md, "Half a second before the speech").
 */
export const UTTERANCE_LEAD_SEC = 0.5;
/** Stretches of speech closer than this (after lead and padding) are decoded together, seconds. */
const MERGE_GAP_SEC = 1;
/**
 * A silence between stretches of speech longer than the plan merges across is cut down to this
 * before decoding (`silence-pack.ts`), seconds: a natural pause, which Whisper writes through.
 */
const PACKED_SILENCE_SEC = 1;
/** Which silences are shortened (`packSilences`): those the plan splits at, between short runs. */
export const SILENCE_PACK: PackOptions = {
  // The silences the plan splits at (`planUtterances` merges the padded stretches).
  longerThanSec: MERGE_GAP_SEC + UTTERANCE_LEAD_SEC + UTTERANCE_PADDING_SEC,
  keptSec: PACKED_SILENCE_SEC,
  runsShorterThanSec: MIN_STRETCH_SEC,
};
/** Every decode: beam search at temperature 0, no sampling (the same audio gives the same words). */
const DECODE_TEMPERATURE = [0];
/**
 * The repetition penalty of the second decode of an utterance whose first decode loops
 * (CTranslate2's: tokens already written are made less likely). It replaced OpenAI's ladder of
 * warmer temperatures, which samples: two minutes of French conversation whose first 28 s loop
 * ("non, non, non, …" to the end of the window) came back with 471, 489 and 491 words in three
 * runs of one process, once with the loop again. At 1.1–1.2 that loop broke into the
 * conversation's words; 1.5 garbled them ("Justement pour vous vendredrab").
 */
export const LOOP_REPETITION_PENALTY = 1.2;

export interface FasterWhisperOptions {
  /** The venv's python; default `<PYTHON_VENV>/bin/python`. */
  python?: string;
  /** CTranslate2 model directory; default DEFAULT_WHISPER_MODEL_DIR. */
  modelDir?: string;
  /**
   * Utterances decoded at once, one CPU thread each; default 2 (the cores). Two single-thread
   * decodes beat one two-thread decode (docs/benchmarks.md "Speech recognition, measured").
   */
  workers?: number;
  /** Beam width; default `DEFAULT_WHISPER_BEAM_SIZE`. */
  beamSize?: number;
  /** Initial prompt of English speech; default DISFLUENT_PROMPT ('' for none). Other languages: prompts.ts. */
  prompt?: string;
  /**
   * Align English words with soundswallower (default true); false keeps Whisper's own times.
   * Other languages always keep Whisper's own times: the aligner's acoustic model is English.
   */
  align?: boolean;
  /**
   * Let the English aligner hear hesitations Whisper left out (default true: `align-fillers.ts`);
   * false aligns the words as written. Benches compare the two (`bench/speech/languages.ts`).
   */
  fillerAlignment?: boolean;
  /** Ask Whisper for its word times (default: only when not aligning). */
  wordTimestamps?: boolean;
  /**
   * With filler alignment and the disfluent prompt, also put in the hesitations Whisper found
   * likely but did not write (default true: `hesitation-scan.ts`; one more greedy decode per
   * English utterance).
   */
  hesitationScan?: boolean;
  /** Shorten long silences between short runs of speech before decoding (default true: `silence-pack.ts`). */
  packSilences?: boolean;
}

/**
 * Beam width by default: 5, Whisper's and faster-whisper's own. Greedy decoding (1) slipped on
 * synthetic speech ("20.26" loops, "Giuseppe moved to … e e e e") and gave 7.7 % round-trip WER
 * on the Piper voice vs 5.1 % at 5, with the same WER and fillers on the recorded speech and 60 s
 * of speech still well inside its gate (docs/benchmarks.md "Speech recognition, measured").
 */
export const DEFAULT_WHISPER_BEAM_SIZE = 5;

/** The utterances Whisper decodes (`leadSec` of audio before each stretch of speech). */
const decodePlan = (pcm: Int16Array, speech: TimeSegment[] | undefined, leadSec = UTTERANCE_LEAD_SEC) =>
  planUtterances(pcm, speech, {
    leadSec,
    paddingSec: UTTERANCE_PADDING_SEC,
    mergeGapSec: MERGE_GAP_SEC,
    maxUtteranceSec: MAX_UTTERANCE_SEC,
  });

/** What must exist for the engine to run; the first missing path, or undefined. */
export function missingWhisperFile(python: string, modelDir: string): string | undefined {
  return [python, WORKER_SCRIPT, join(modelDir, 'model.bin'), join(modelDir, 'tokenizer.json')].find(
    (p) => !existsSync(p),
  );
}

/** faster-whisper as an AsrEngine. */
export class FasterWhisperEngine implements AsrEngine {
  readonly name = 'faster-whisper';
  readonly model: string;
  lastRun?: AsrRunStats;
  readonly #proc: WhisperProcess;
  readonly #beamSize: number;
  readonly #prompt: string;
  readonly #align: boolean;
  readonly #fillerAlignment: boolean;
  readonly #hesitationScan: boolean;
  readonly #wordTimestamps: boolean;
  readonly #workers: number;
  readonly #packSilences: boolean;

  constructor({
    python = venvPython(),
    modelDir = DEFAULT_WHISPER_MODEL_DIR,
    workers = 2,
    beamSize = DEFAULT_WHISPER_BEAM_SIZE,
    prompt = DISFLUENT_PROMPT,
    align = true,
    fillerAlignment = true,
    hesitationScan = true,
    wordTimestamps = !align,
    packSilences = true,
  }: FasterWhisperOptions = {}) {
    this.#packSilences = packSilences;
    this.#fillerAlignment = fillerAlignment;
    this.#hesitationScan = hesitationScan;
    this.#wordTimestamps = wordTimestamps;
    this.model = modelDir.replace(/\/+$/, '').split('/').at(-1) ?? 'whisper';
    this.#workers = Math.max(1, workers);
    this.#proc = new WhisperProcess({ python, script: WORKER_SCRIPT, modelDir, workers: this.#workers });
    this.#beamSize = beamSize;
    this.#prompt = prompt;
    this.#align = align;
  }

  /** Loads the model now (else on first use). @throws AsrModelError */
  async load(): Promise<void> {
    await this.#proc.start();
  }

  /**
   * @inheritdoc
   * Silences the decode plan would split at are shortened first (`silence-pack.ts`) when that
   * leaves an utterance for each decode lane: sparse speech then shares Whisper's windows, and
   * the words come back at the times they were said. Not English: Whisper writes and hints far
   * fewer of a speaker's "uh"s in a window of many sentences than in one of a single sentence
   * (docs/languages.md, "Sparse English keeps its windows"). So the language is detected on the
   * audio as it was said first, and only speech in another language is packed (the detection
   * is not made again).
   */
  async transcribe(pcm: Int16Array, options: TranscribeOptions = {}): Promise<AsrOutput> {
    const packed =
      this.#packSilences &&
      options.language !== 'en' &&
      packSilences(pcm, options.speechSegments, SILENCE_PACK);
    if (!packed) return this.#transcribe(pcm, options);
    // Fewer utterances than lanes would leave a core idle: a short clip is faster as it is.
    const lanes = Math.min(this.#workers, decodePlan(pcm, options.speechSegments).length);
    if (decodePlan(packed.pcm, packed.speech).length < lanes) return this.#transcribe(pcm, options);
    // A language the client set is not English (above): no detection to wait for.
    const first = options.language ? undefined : await this.#transcribe(pcm, options, { onlyEnglish: true });
    if (first && !('otherLanguage' in first)) return first;
    const speechSegments = packed.speech;
    return unpackOutput(
      packed.spans,
      await this.#transcribe(packed.pcm, { ...options, speechSegments }, { detected: first?.otherLanguage }),
    );
  }

  /** @param detected the file's language as already detected (not detected again) */
  async #transcribe(
    pcm: Int16Array,
    options: TranscribeOptions,
    how?: { detected?: LanguageDetection },
  ): Promise<AsrOutput>;
  /**
   * @param onlyEnglish stop after the detection unless English is a language to decode in, and
   *   answer with the detection
   */
  async #transcribe(
    pcm: Int16Array,
    options: TranscribeOptions,
    how: { onlyEnglish: true },
  ): Promise<AsrOutput | { otherLanguage: LanguageDetection }>;
  async #transcribe(
    pcm: Int16Array,
    { speechSegments, signal, language: requested }: TranscribeOptions,
    { detected: given, onlyEnglish = false }: { detected?: LanguageDetection; onlyEnglish?: boolean } = {},
  ): Promise<AsrOutput | { otherLanguage: LanguageDetection }> {
    const t0 = performance.now();
    if (signal?.aborted) throw new AsrAbortedError();
    // Every language decodes these.
    const utterances = decodePlan(pcm, speechSegments);
    const out: AsrOutput = {
      engine: this.name,
      model: this.model,
      words: [],
      language: requested ?? null,
      language_probability: null,
    };
    if (utterances.length === 0) {
      this.lastRun = { wallMs: performance.now() - t0, peakRssBytes: 0, utterances: 0, processes: 0 };
      return out;
    }
    const dir = await mkdtemp(join(tmpdir(), WORK_DIR_PREFIX.asr));
    let peak = 0;
    let loopRedecodes = 0;
    let skippedSpeechRedecodes = 0;
    const poll = setInterval(() => (peak = Math.max(peak, readPeakRss(this.#proc.pid))), 100);
    try {
      const pcmPath = join(dir, 'audio.raw');
      await writeFile(pcmPath, pcmToBytes(pcm));
      // The file's language first (one encoder pass per window of speech), unless requested:
      // every utterance is then transcribed in it, so one language holds for the whole file.
      let candidates = requested ? [requested] : [];
      let detected = requested ? undefined : given;
      // Utterances whose first window the worker has encoded (EncoderCache): a hesitation scan of
      // one of them starts at once, beside its decode, without a second encoder pass.
      const encoded = new Set<TimeSegment>();
      // A long (or the only) utterance is read alone by the detection, as its decode reads it:
      // that decode then does not encode the same window again, and comes first.
      const own =
        requested || detected
          ? undefined
          : ownDetectionWindow(utterances, (u) => speechSecondsIn(u, speechSegments));
      if (detected) candidates = trialLanguages(detected, speechSeconds(utterances));
      else if (!requested) {
        // Meanwhile the worker's other slots encode the utterances the lanes take first (no
        // language needed).
        const ahead = encodedWhileDetecting(
          decodeOrder(utterances, own).map((i) => utterances[i]),
          own,
          this.#workers,
        );
        // The speech read together keeps the VAD's 0.2 s before each stretch: 0.3 s more of
        // near-silence per utterance made Whisper hear 11 s of robotic English as Finnish (0.73).
        const heard = decodePlan(pcm, speechSegments, UTTERANCE_PADDING_SEC);
        [detected] = await Promise.all([
          this.#detect(pcmPath, heard, own, signal),
          ...ahead.map((u) => this.#encode(pcmPath, u, signal)),
        ]);
        for (const u of [own, ...ahead]) if (u) encoded.add(u);
        candidates = trialLanguages(detected, speechSeconds(utterances));
      }
      if (onlyEnglish && detected && !candidates.includes('en')) return { otherLanguage: detected };
      // One utterance per request: the worker's queue then takes turns between concurrent jobs.
      const decode = async (
        utterance: TimeSegment,
        language: string,
        wordTimestamps: boolean,
        {
          prompt = promptFor(language, this.#prompt),
          repetitionPenalty = 1,
        }: { prompt?: string; repetitionPenalty?: number } = {},
      ): Promise<WorkerLine> => {
        let decoded: WorkerLine | undefined;
        const done = await this.#proc.request(
          {
            pcm: pcmPath,
            utterances: [utterance],
            beam_size: this.#beamSize,
            initial_prompt: prompt,
            word_timestamps: wordTimestamps,
            language,
            temperature: DECODE_TEMPERATURE,
            repetition_penalty: repetitionPenalty,
            // The language's bound on tokens (a loop stops early, its speech does not).
            max_tokens_per_sec: maxTokensPerSecond(language),
            // A rest this short after Whisper's last word is not decoded again: what Whisper
            // writes there is mostly invented and dropped (isDoubtedTail), and each is a window.
            max_skipped_tail_sec: MAX_TAIL_SEC,
            // The language Whisper hears in each utterance (one decoder step), unless the client
            // set it: a long stretch in another language is decoded again in its own.
            utterance_language: !requested,
          },
          (line) => (decoded = line),
          signal,
        );
        peak = Math.max(peak, Number(done.peak_rss_bytes) || 0, readPeakRss(this.#proc.pid));
        if (!decoded) throw new AsrEngineError('the Whisper worker answered without the utterance');
        encoded.add(utterance);
        return decoded;
      };
      /** Whisper's hesitation scan of an utterance (`hesitation-scan.ts`), with the decode's prompt. */
      const hesitationScanOf = async (utterance: TimeSegment, language: string): Promise<ScanWord[]> => {
        let scanned: ScanWord[] = [];
        const done = await this.#proc.request(
          {
            scan: true,
            pcm: pcmPath,
            utterances: [utterance],
            language,
            initial_prompt: promptFor(language, this.#prompt),
            max_tokens_per_sec: maxTokensPerSecond(language),
          },
          (line) => (scanned = scanOf(line.scan)),
          signal,
        );
        peak = Math.max(peak, Number(done.peak_rss_bytes) || 0);
        return scanned;
      };
      let alignerDown: string | undefined;
      const alignLine = (line: WorkerLine, words: TimedWord[]) =>
        alignUtterance(
          pcm,
          Number(line.start),
          Number(line.end),
          words,
          this.#fillerAlignment,
          signal,
          (err) => {
            if (err instanceof AsrModelError) alignerDown ??= err.message;
          },
        );
      /**
       * The utterance decoded once more without the prompt, kept when it has at least
       * `MIN_RECOVERED_WORDS` more words than `words` (a hesitant speaker's unwritten "uh"s alone
       * do not swap it): a prompt can make Whisper skip a sentence, in any language. Undefined
       * when that decode is not kept.
       */
      const decodedWithoutPrompt = async (
        utterance: TimeSegment,
        words: TimedWord[],
        language: string,
        wordTimestamps: boolean,
      ): Promise<{ line: WorkerLine; words: TimedWord[] } | undefined> => {
        const plain = await decode(utterance, language, wordTimestamps, { prompt: '' });
        const plainSegments = plain.segments as WhisperSegment[];
        if (hasDecodingLoop(plainSegments)) return undefined;
        const plainWords = keptWords(plainSegments, language);
        if (lexicalWords(plainWords) < lexicalWords(words) + MIN_RECOVERED_WORDS) return undefined;
        skippedSpeechRedecodes++;
        return { line: plain, words: plainWords };
      };
      /**
       * Aligns an English utterance; when the aligner had to hear more than a few hesitations that
       * Whisper did not write, or the decode has too few words for its speech (`maySkipSpeech`), the
       * prompted decode may have skipped speech (whose words the aligner then takes for
       * "uh"/"hmm"), and it is decoded again without the prompt (`decodedWithoutPrompt`).
       */
      const alignChecked = async (
        utterance: TimeSegment,
        line: WorkerLine,
        words: TimedWord[],
        language: string,
      ): Promise<TimedWord[]> => {
        const aligned = await alignLine(line, words);
        if (
          !promptFor(language, this.#prompt) ||
          !maySkipSpeech(words, aligned, speechSecondsIn(utterance, speechSegments))
        )
          return aligned;
        const plain = await decodedWithoutPrompt(utterance, words, language, this.#wordTimestamps);
        return plain ? alignLine(plain.line, plain.words) : aligned;
      };
      /**
       * Checks an utterance that keeps Whisper's own word times (every language but English): when
       * its words leave speech without a word near it, or are too few for its speech
       * (`leavesSpeechUnwritten`), the prompted decode may have skipped a sentence, and it is
       * decoded again without the prompt (`decodedWithoutPrompt`).
       */
      const ownTimesChecked = async (
        utterance: TimeSegment,
        words: TimedWord[],
        language: string,
      ): Promise<TimedWord[]> => {
        if (!promptFor(language, this.#prompt) || !leavesSpeechUnwritten(words, utterance, speechSegments))
          return words;
        return (await decodedWithoutPrompt(utterance, words, language, true))?.words ?? words;
      };
      /**
       * Every utterance in one language (or those of `only`): its words, the mean log-probability
       * of what was kept, and per utterance the languages Whisper heard in it.
       */
      const decodeIn = async (language: string, only?: TimeSegment[]) => {
        // English words are timed (and their hesitations counted) by the English aligner; any
        // other language keeps Whisper's own word times.
        const align = this.#align && language === 'en';
        const planned = only ?? utterances;
        // Longest first (`decodeOrder`); the results keep the plan's order.
        const order = decodeOrder(planned, only ? undefined : own);
        const heard: Array<HeardLanguages | undefined> = [];
        const perUtterance = new Array<Promise<TimedWord[]>>(planned.length);
        const wordTimestamps = this.#wordTimestamps || !align;
        const scan =
          align && this.#fillerAlignment && this.#hesitationScan && promptFor(language, this.#prompt) !== '';
        const segments: WhisperSegment[][] = [];
        // Per utterance: the decode kept, whether it is the one the scan matches (not a loop's
        // second decode), and the scan.
        const lines: WorkerLine[] = [];
        const firstKept: boolean[] = [];
        const scans: Array<ScanWord[] | undefined> = [];
        /** Once an utterance's decode (and scan) are in: its words, timed in the background. */
        const settle = (i: number) => {
          if (!lines[i] || (scan && !scans[i])) return;
          const scanned = firstKept[i] ? (scans[i] ?? []) : [];
          const words = withScannedHesitations(keptWords(segments[i], language), scanned);
          // Alignment (in the aligner's own process) overlaps the worker's next utterances.
          const timed = align
            ? alignChecked(planned[i], lines[i], words, language)
            : ownTimesChecked(planned[i], words, language);
          timed.catch(() => {}); // awaited below, unless a lane fails first
          perUtterance[i] = timed;
        };
        const decodeTask = async (i: number): Promise<void> => {
          const first = await decode(planned[i], language, wordTimestamps);
          let line = first;
          if (hasDecodingLoop(line.segments as WhisperSegment[])) {
            loopRedecodes++;
            const again = await decode(planned[i], language, wordTimestamps, {
              repetitionPenalty: LOOP_REPETITION_PENALTY,
            });
            if (keepsRedecode(line.segments as WhisperSegment[], again.segments as WhisperSegment[]))
              line = again;
          }
          segments[i] = line.segments as WhisperSegment[];
          heard[i] = line.heard as HeardLanguages | undefined;
          firstKept[i] = line === first;
          lines[i] = line;
          settle(i);
        };
        const scanTask = async (i: number): Promise<void> => {
          scans[i] = lines[i] && !firstKept[i] ? [] : await hesitationScanOf(planned[i], language);
          settle(i);
        };
        // One lane per worker slot: this job keeps the worker's cores busy yet never queues more
        // than `workers` requests ahead of another job's. A lane decodes the next utterance, then
        // scans it (the window is encoded by then); a lane with no utterance left to decode scans
        // one whose window is encoded already (ahead, or by the detection) and whose scan no lane
        // took: a file of one utterance scans on the second slot beside its decode.
        let next = 0;
        const scanTaken = new Set<number>();
        /** Takes utterance i's scan for this lane: false when another lane took it. */
        const claimScan = (i: number) => !scanTaken.has(i) && scanTaken.add(i).has(i);
        let failed = false;
        const lane = async (): Promise<void> => {
          try {
            while (!failed) {
              if (next < order.length) {
                const i = order[next++];
                await decodeTask(i);
                if (scan && claimScan(i)) await scanTask(i);
                continue;
              }
              const ready = scan
                ? order.find((i) => !scanTaken.has(i) && encoded.has(planned[i]))
                : undefined;
              if (ready === undefined || !claimScan(ready)) return;
              await scanTask(ready);
            }
          } catch (err) {
            failed = true; // the other lanes take no new utterance
            throw err;
          }
        };
        await Promise.all(Array.from({ length: this.#workers }, lane));
        // Scored on what is kept: an invented tail must neither lift nor sink a language.
        const score = decodeScore(segments.flatMap(keptSegments));
        return { score, words: perUtterance, planned, heard, segments };
      };
      // An unsure detection of a short file is settled by decoding in each likely language and
      // keeping the decode Whisper itself finds likelier (trialLanguages).
      const trials: Array<{ language: string } & Awaited<ReturnType<typeof decodeIn>>> = [];
      for (const language of candidates) trials.push({ language, ...(await decodeIn(language)) });
      const heardAs = (language: string) => (detected && probabilityOf(detected, language)) ?? undefined;
      const picked = pickDecode(trials.map((t) => ({ ...t, probability: heardAs(t.language) })));
      const kept = trials.find((t) => t.language === picked)!;
      // A long stretch Whisper hears in another language than the file's (`otherLanguageStretches`)
      // is decoded again in its own, and kept when Whisper finds that decode likelier.
      const switched: LanguageStretch[] = [];
      const stretches = detected ? otherLanguageStretches(kept, kept.language) : [];
      for (const stretch of stretches) {
        const own = await decodeIn(
          stretch.language,
          stretch.utterances.map((i) => kept.planned[i]),
        );
        const before = decodeScore(stretch.utterances.flatMap((i) => keptSegments(kept.segments[i])));
        if (own.score - before < TRIAL_MARGIN) continue;
        stretch.utterances.forEach((i, k) => (kept.words[i] = own.words[k]));
        switched.push(stretch);
      }
      // The result's language is the one most of the speech is in once the stretches are switched.
      out.language = mainLanguage(kept.planned, switched, kept.language);
      if (detected) out.language_probability = probabilityOf(detected, out.language, switched);
      const notes = detected
        ? detectionWarnings(detected, kept.language, candidates, switched, out.language)
        : [];
      out.words = (await Promise.all(kept.words)).flat();
      if (alignerDown && kept.language === 'en') {
        console.warn(JSON.stringify({ level: 'warn', asr_aligner_unavailable: alignerDown }));
        notes.push(ALIGNER_DOWN_WARNING);
      }
      if (notes.length > 0) out.warnings = notes;
    } finally {
      clearInterval(poll);
      await rm(dir, { recursive: true, force: true });
    }
    this.lastRun = {
      wallMs: performance.now() - t0,
      peakRssBytes: peak,
      utterances: utterances.length,
      processes: 1,
      loopRedecodes,
      skippedSpeechRedecodes,
    };
    return out;
  }

  /** Encodes the utterance's window as its decode will, for that decode to read again. */
  async #encode(pcmPath: string, utterance: TimeSegment, signal?: AbortSignal): Promise<void> {
    await this.#proc.request({ encode: true, pcm: pcmPath, utterances: [utterance] }, () => {}, signal);
  }

  /**
   * Whisper's language probabilities over up to three windows of the speech; the first is
   * `own` alone when given (`ownDetectionWindow`), the others the rest of the speech.
   */
  async #detect(
    pcmPath: string,
    utterances: TimeSegment[],
    own: TimeSegment | undefined,
    signal?: AbortSignal,
  ): Promise<LanguageDetection> {
    let answer: WorkerLine | undefined;
    await this.#proc.request(
      {
        detect: true,
        pcm: pcmPath,
        utterances: speechBesides(utterances, own),
        windows: detectionWindows(utterances),
        ...(own && { own_window: own }),
      },
      (line) => (answer = line),
      signal,
    );
    if (!answer || !('language' in answer))
      throw new AsrEngineError('the Whisper worker answered without the language');
    return answer as unknown as LanguageDetection;
  }

  /** Stops the worker; idempotent. */
  dispose(): void {
    this.#proc.dispose();
  }

  [Symbol.dispose](): void {
    this.dispose();
  }
}

/** Pure: an utterance's segments without its doubted tails and invented segments. */
export function keptSegments(segments: readonly WhisperSegment[]): WhisperSegment[] {
  return withoutDoubtedTails(segments).filter((s) => !isHallucinatedSegment(s));
}

/**
 * Pure: the words of an utterance's segments, without invented segments and loops (a loop inside
 * a word cut to two of its syllable). Words of a segment whose repeats were heard
 * (`isHeardRepetition`) are kept whole.
 */
export function keptWords(segments: readonly WhisperSegment[], language?: string): TimedWord[] {
  const parts = keptSegments(segments).map((s) => ({
    words: segmentWords(s, language).map((w) => ({ ...w, word: cutInWordLoop(w.word) })),
    heard: isHeardRepetition(s),
  }));
  const words = parts.flatMap((p) => p.words);
  const heard = parts.flatMap((p) => p.words.map(() => p.heard));
  const uncut = new Set(cutRepeatLoops(words.map((w) => w.word)));
  return words.filter((_, i) => heard[i] || uncut.has(i));
}

/**
 * Pure: whether the second decode of a looping utterance (`LOOP_REPETITION_PENALTY`) replaces the
 * first one: unless the filters keep fewer of its words than of the first's (the loop cut or
 * dropped). A second decode can come back as noise the filters drop whole: on Intel MKL's kernels
 * the disfluent clip mfa_uhuh.flac once lost every word that way (a warmer, sampled decode, as
 * they were then), "Montreal" and "forced aligner" included, where its first decode kept
 * "Montreal" before the loop.
 */
export function keepsRedecode(first: readonly WhisperSegment[], again: readonly WhisperSegment[]): boolean {
  return lexicalWords(keptWords(again)) >= lexicalWords(keptWords(first));
}

/**
 * Pure: a segment's words. Without Whisper's word timestamps (the default: the aligner times
 * the words, and skipping them saves ~20 % of the decode), the text is split at spaces and the
 * segment's span shared by letter count: only the fallback when alignment fails uses those times.
 */
export function segmentWords(s: WhisperSegment, language?: string): TimedWord[] {
  if (s.words.length > 0) return joinWordPieces(s.words, language);
  const texts = s.text.split(/\s+/).filter(Boolean);
  const letters = texts.reduce((n, t) => n + t.length, 0) || 1;
  const confidence = r3(Math.exp(Math.min(0, s.avg_logprob)));
  let t = s.start;
  return texts.map((word) => {
    const d = ((s.end - s.start) * word.length) / letters;
    const w = { word, start: r3(t), end: r3(t + d), confidence };
    t += d;
    return w;
  });
}

/**
 * Pure: Whisper's timed words as whole words. Whisper starts a new "word" at a punctuation
 * token, so French "c'est" and "grand-mère" come as " c" + "'est" and " grand" + "-mère" (the
 * second piece without a leading space): a piece without a leading space continues the word
 * before it, times joined, the lower probability kept. In a language written without spaces
 * (Chinese, Japanese, Thai…) no piece has one: each piece is a word of its own (a character or a
 * few, as Whisper split them), and only punctuation joins the piece before it; joined, a
 * sentence would be one word spanning its utterance, with no pace or pause inside.
 * @example joinWordPieces([{ word: ' c', … }, { word: "'est", … }]) // [{ word: "c'est", … }]
 */
export function joinWordPieces(words: WhisperSegment['words'], language?: string): TimedWord[] {
  const spaceless = isWrittenWithoutSpaces(language);
  const out: TimedWord[] = [];
  for (const w of words) {
    const text = w.word.trim();
    if (text === '') continue;
    const last = out.at(-1);
    const continues = spaceless ? !/[\p{L}\p{N}]/u.test(text) : !/^\s/.test(w.word);
    if (last && continues) {
      last.word += text;
      last.end = Math.max(last.end, w.end);
      last.confidence = Math.min(last.confidence, w.probability);
    } else out.push({ word: text, start: w.start, end: Math.max(w.start, w.end), confidence: w.probability });
  }
  return out;
}

/** Words a decode without the prompt must add to replace one suspected of skipping speech. */
const MIN_RECOVERED_WORDS = 3;

/**
 * Said in the output when the forced aligner could not start (its package missing from the
 * environment, say): the words are all there, but their times and hesitation counts are rough.
 * Why it could not start goes to the service's log, not to the client.
 */
export const ALIGNER_DOWN_WARNING =
  "words: the forced aligner is unavailable, so each word's time is its segment's span shared by letters and hesitations Whisper did not write are not heard";

/** Longest run of hesitation words kept when the aligner cannot count them (a loop otherwise). */
const MAX_UNALIGNED_HESITATION_RUN = 3;

/**
 * Gives each word of one utterance ([start, end] of the audio) its forced-alignment time:
 * first (with `fillerAlignment`) the grammar search that also counts hesitations (`align-fillers.ts`), else the
 * phrase-by-phrase aligner on the words as written, else the times the words came with
 * (Whisper's, or their segment's span shared by letters: rough, but the words stay).
 */
async function alignUtterance(
  pcm: Int16Array,
  start: number,
  end: number,
  words: TimedWord[],
  fillerAlignment: boolean,
  signal?: AbortSignal,
  onUnaligned?: (err: unknown) => void,
): Promise<TimedWord[]> {
  if (words.length === 0) return words;
  const withFillers = fillerAlignment
    ? await alignWithFillers(pcm, start, end, words, {}, signal)
    : undefined;
  if (withFillers) return withFillers;
  const capped = capHesitationRuns(words, MAX_UNALIGNED_HESITATION_RUN);
  const tokenCounts = capped.map((w) => alignTokens(w.word).length);
  if (tokenCounts.every((n) => n === 0)) return capped;
  let aligned: TimedWord[];
  try {
    aligned = await alignText(slicePcm(pcm, start, end), capped.map((w) => w.word).join(' '), signal);
  } catch (err) {
    if (err instanceof AsrAbortedError) throw err;
    onUnaligned?.(err);
    return capped;
  }
  let k = 0;
  return capped.map((w, i) => {
    const n = tokenCounts[i];
    if (n === 0) return w;
    const first = aligned[k];
    const last = aligned[k + n - 1];
    k += n;
    // Tokens left out of the alignment (unknown words) have confidence 0 and interpolated times.
    if (!first || !last || first.confidence === 0) return w;
    return { ...w, start: r3(start + first.start), end: r3(start + last.end) };
  });
}

/** Pure: cuts runs of hesitation words to at most `max`. */
export function capHesitationRuns(words: readonly TimedWord[], max: number): TimedWord[] {
  let run = 0;
  return words.filter((w) => {
    run = isHesitation(alignTokens(w.word).join(' ')) ? run + 1 : 0;
    return run <= max;
  });
}

const r3 = (x: number): number => Math.round(x * 1000) / 1000;
