/**
 * @module containers/media/engines/asr/pocketsphinx
 * The embedded default recogniser: Debian's `pocketsphinx_batch` (pocketsphinx 5prealpha with
 * the en-us continuous model, 3-gram LM and CMU dictionary). The PCM is written once to a temp
 * file; a control file lists the utterances (padded VAD segments) by frame range, so one
 * process loads the models once and decodes them all. With 2+ utterances and enough audio the
 * utterances are shared between `workers` processes (one per core).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AsrOutput, TimedWord, TimeSegment } from '../../../../src/contract/media.js';
import { spawnMedia, type MediaProcess } from '../../core/ffmpeg.js';
import { mediaConfig } from '../../core/config.js';
import type { AsrEngine, AsrRunStats, TranscribeOptions } from './port.js';
import { AsrAbortedError, AsrEngineError } from './errors.js';
import { ASR_SAMPLE_RATE_HZ, pcmToBytes, readPeakRss } from './pcm.js';
import { joinUtterance, parseCtm, parseHypseg, PS_FRAMES_PER_SEC } from './pocketsphinx-output.js';
import { partitionUtterances, planUtterances, type DecodePlanOptions } from './segments.js';

/** Debian's model directory (package pocketsphinx-en-us). */
export const PS_MODEL_DIR = mediaConfig().asr.pocketsphinxModelDir;
/** Model name reported in `AsrOutput.model`. */
export const PS_MODEL_NAME = 'pocketsphinx-en-us';
export const PS_BATCH_BIN = mediaConfig().asr.pocketsphinxBatchPath;

/**
 * Decoder flags chosen by `bench/speech/tune.ts` (WER on ../shared/media/speech; its figures
 * in docs/benchmarks.md). Values are pocketsphinx's own units (log-domain beams as probabilities).
 */
export const PS_TUNED_PARAMS: Readonly<Record<string, string>> = {
  // Caps active HMMs per frame (default 30000): less CPU at unchanged WER; far lower costs WER.
  maxhmmpf: '5000',
  // Batch mode's own VAD drops silent frames and hypseg/CTM times then skip them (JFK words came
  // out up to 1.2 s early); utterances are already VAD segments, so keep every frame.
  remove_silence: 'no',
  // Word exits per frame (default 20): CPU RTF −12 % at unchanged WER on the corpus (5 would cost 2 edits).
  maxwpf: '10',
  // No second (flat-lexicon) pass: CPU RTF −14 % for one more edit in 110 words; what brings 60 s of
  // speech under 20 s end to end on 2 cores (bench/gates/run.ts).
  fwdflat: 'no',
};

/** Below this much audio a second process costs more (model load ~0.3 s) than it saves, seconds. */
export const MIN_AUDIO_PER_EXTRA_WORKER_SEC = 6;
/** How often the children's peak RSS is sampled, milliseconds. */
const RSS_POLL_MS = 50;

export interface PocketsphinxOptions {
  /** Parallel decoder processes; default 2. */
  workers?: number;
  /** Model directory holding `en-us/`, `en-us.lm.bin`, `cmudict-en-us.dict`; default Debian's. */
  modelDir?: string;
  /** Extra or overriding decoder flags without the dash, e.g. `{ lw: '7' }`. */
  params?: Record<string, string | number>;
  /** How VAD segments become utterances. */
  plan?: DecodePlanOptions;
  /** Audio needed per extra process, seconds; default MIN_AUDIO_PER_EXTRA_WORKER_SEC. */
  minAudioPerWorkerSec?: number;
}

/** Pocketsphinx through `pocketsphinx_batch` child processes. */
export class PocketsphinxEngine implements AsrEngine {
  readonly name = 'pocketsphinx';
  lastRun?: AsrRunStats;
  readonly #workers: number;
  readonly #modelDir: string;
  readonly #params: Record<string, string>;
  readonly #plan: DecodePlanOptions;
  readonly #minAudioPerWorkerSec: number;
  readonly #live = new Set<MediaProcess>();

  constructor({
    workers = 2,
    modelDir = PS_MODEL_DIR,
    params = {},
    plan = {},
    minAudioPerWorkerSec = MIN_AUDIO_PER_EXTRA_WORKER_SEC,
  }: PocketsphinxOptions = {}) {
    this.#minAudioPerWorkerSec = minAudioPerWorkerSec;
    this.#workers = Math.max(1, Math.floor(workers));
    this.#modelDir = modelDir;
    this.#params = {
      ...PS_TUNED_PARAMS,
      ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])),
    };
    this.#plan = plan;
  }

  /** @inheritdoc */
  async transcribe(pcm: Int16Array, { speechSegments, signal }: TranscribeOptions = {}): Promise<AsrOutput> {
    const t0 = performance.now();
    if (signal?.aborted) throw new AsrAbortedError();
    const utterances = planUtterances(pcm, speechSegments, this.#plan);
    if (utterances.length === 0) {
      this.lastRun = { wallMs: performance.now() - t0, peakRssBytes: 0, utterances: 0, processes: 0 };
      return { engine: this.name, model: PS_MODEL_NAME, words: [], silences: [] };
    }
    const audioSec = utterances.reduce((s, u) => s + u.end - u.start, 0);
    const workers = Math.min(
      this.#workers,
      utterances.length,
      1 + Math.floor(audioSec / Math.max(this.#minAudioPerWorkerSec, 1e-9)),
    );
    const groups = partitionUtterances(utterances, workers);
    const dir = await mkdtemp(join(tmpdir(), 'asr-ps-'));
    try {
      await writeFile(join(dir, 'audio.raw'), pcmToBytes(pcm));
      if (signal?.aborted) throw new AsrAbortedError();
      const results = await Promise.all(groups.map((g, i) => this.#decodeGroup(dir, i, g, signal)));
      const words: TimedWord[] = results.flatMap((r) => r.words).sort((a, b) => a.start - b.start);
      const silences: TimeSegment[] = results.flatMap((r) => r.silences).sort((a, b) => a.start - b.start);
      this.lastRun = {
        wallMs: performance.now() - t0,
        peakRssBytes: results.reduce((s, r) => s + r.peakRssBytes, 0),
        utterances: utterances.length,
        processes: groups.length,
      };
      return { engine: this.name, model: PS_MODEL_NAME, words, silences };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Decodes one group of utterances in one `pocketsphinx_batch` process. */
  async #decodeGroup(dir: string, index: number, utts: TimeSegment[], signal?: AbortSignal) {
    const ids = utts.map((_, i) => `g${index}u${String(i).padStart(4, '0')}`);
    const ctl = utts
      .map(
        (u, i) =>
          `audio ${Math.floor(u.start * PS_FRAMES_PER_SEC)} ${Math.ceil(u.end * PS_FRAMES_PER_SEC)} ${ids[i]}`,
      )
      .join('\n');
    const ctlPath = join(dir, `g${index}.ctl`);
    const hypsegPath = join(dir, `g${index}.hypseg`);
    const ctmPath = join(dir, `g${index}.ctm`);
    await writeFile(ctlPath, `${ctl}\n`);
    // spawnMedia only listens for a future abort; one that already happened must stop us here.
    if (signal?.aborted) throw new AsrAbortedError();
    const args = this.#args({ ctl: ctlPath, hypseg: hypsegPath, ctm: ctmPath, cepdir: dir });
    const proc = spawnMedia(PS_BATCH_BIN, args, signal);
    this.#live.add(proc);
    proc.child.stdin.end();
    proc.child.stdout.resume();
    let peakRssBytes = 0;
    const poll = setInterval(() => {
      peakRssBytes = Math.max(peakRssBytes, readPeakRss(proc.child.pid));
    }, RSS_POLL_MS);
    try {
      await proc.done;
    } catch (err) {
      if (signal?.aborted) throw new AsrAbortedError();
      throw new AsrEngineError(`pocketsphinx_batch failed: ${(err as Error).message}`, { cause: err });
    } finally {
      clearInterval(poll);
      this.#live.delete(proc);
      proc.dispose();
    }
    const [hypseg, ctm] = await Promise.all([
      readFile(hypsegPath, 'utf8'),
      readFile(ctmPath, 'utf8').catch(() => ''),
    ]);
    const segs = parseHypseg(hypseg);
    const ctmByUtt = parseCtm(ctm);
    const words: TimedWord[] = [];
    const silences: TimeSegment[] = [];
    utts.forEach((u, i) => {
      // Frame-aligned utterance start, the origin of its hypseg/CTM times.
      const offset = Math.floor(u.start * PS_FRAMES_PER_SEC) / PS_FRAMES_PER_SEC;
      const r = joinUtterance(segs.get(ids[i]) ?? [], ctmByUtt.get(ids[i]) ?? [], offset);
      words.push(...r.words);
      silences.push(...r.silences);
    });
    return { words, silences, peakRssBytes };
  }

  #args(files: { ctl: string; hypseg: string; ctm: string; cepdir: string }): string[] {
    const flags: Record<string, string> = {
      hmm: join(this.#modelDir, 'en-us'),
      lm: join(this.#modelDir, 'en-us.lm.bin'),
      dict: join(this.#modelDir, 'cmudict-en-us.dict'),
      adcin: 'yes',
      samprate: String(ASR_SAMPLE_RATE_HZ),
      cepdir: files.cepdir,
      cepext: '.raw',
      ctl: files.ctl,
      hypseg: files.hypseg,
      ctm: files.ctm,
      logfn: '/dev/null',
      ...this.#params,
    };
    return Object.entries(flags).flatMap(([k, v]) => [`-${k}`, v]);
  }

  /** Kills any running decoder; idempotent. */
  dispose(): void {
    for (const p of this.#live) p.dispose();
    this.#live.clear();
  }

  [Symbol.dispose](): void {
    this.dispose();
  }
}
