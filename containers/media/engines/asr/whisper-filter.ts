/**
 * @module containers/media/engines/asr/whisper-filter
 * Pure guards against Whisper's invented words. Whisper is a language model as much as a
 * recogniser: on silence or noise it writes plausible text ("Thank you.", subtitles credits),
 * and once a window goes wrong it can repeat a phrase until the window ends. Decoding only VAD
 * speech removes most of it; these rules remove the rest:
 *
 * - a decoded segment Whisper itself thinks is not speech (OpenAI's own rule: no-speech
 *   probability > 0.6 *and* mean log-probability < −1) is dropped;
 * - a segment that loops (`isDecodingLoop`: its text compresses too well, gzip ratio > 2.4,
 *   OpenAI's threshold for a degenerate decode, *and* its repeats are not spread over the audio)
 *   or with very low mean log-probability is dropped. Speech that really repeats (a chant, a
 *   rehearsed line, a looped clip) compresses as well as a loop; Whisper's cross-attention puts
 *   each repeat over its own stretch of audio, while a loop's extra words get none;
 * - a phrase of 2+ words repeated back to back 3+ times, or a word (not a hesitation)
 *   repeated 4+ times, is cut to its first occurrence: people do say "no, no, no" and
 *   "uh uh uh", but not "thank you thank you thank you" — unless Whisper placed each repeat
 *   over its own audio (`isHeardRepetition`): then it was said;
 * - a segment of a short re-decoded tail (≤ 1 s) that Whisper doubts is speech (`isDoubtedTail`)
 *   is dropped;
 * - a loop inside one word ("riferodemememe…", a syllable 8+ times back to back) makes its
 *   segment a loop, and the word keeps two of the syllable (`cutInWordLoop`).
 */

import { deflateSync } from 'node:zlib';
import { isHesitationAnywhere as isHesitationNorm } from '../../../../src/analytics/speech/languages.js';
import { normalizeWord } from '../../../../src/analytics/speech/tokens.js';
import type { TimeSegment } from '../../../../src/contract/media.js';
import { speechSecondsIn, uncoveredSpeechSec } from './segments.js';

/** One decoded segment as the Python worker reports it. */
export interface WhisperSegment {
  text: string;
  /** Absolute times of the segment, seconds. */
  start: number;
  end: number;
  avg_logprob: number;
  no_speech_prob: number;
  compression_ratio: number;
  /** The temperature of the decode that wrote it (0: greedy or beam search). */
  temperature?: number;
  /**
   * Absolute start of the decode window that wrote it, seconds: the utterance's start, or later
   * when Whisper stopped before the end of the audio and the rest was decoded again.
   */
  window_start?: number;
  /**
   * Whisper's words with its own times; empty when word timestamps were not asked for, except in
   * a segment that compresses like a loop (the worker times those: `isDecodingLoop`).
   */
  words: Array<{ word: string; start: number; end: number; probability: number }>;
}

/** OpenAI Whisper's no-speech threshold (transcribe.py). */
export const NO_SPEECH_PROB = 0.6;
/** OpenAI Whisper's log-probability threshold that goes with it. */
export const LOGPROB_FOR_NO_SPEECH = -1;
/** OpenAI Whisper's compression-ratio threshold for a degenerate decode. */
export const MAX_COMPRESSION_RATIO = 2.4;
/** Below this mean token log-probability the decode is noise, whatever no_speech says. */
export const MIN_AVG_LOGPROB = -1.5;

/** A word that Whisper's cross-attention gives less audio than this was squeezed in, seconds. */
export const MIN_HEARD_WORD_SEC = 0.05;
/**
 * Above this share of squeezed words a repetitive decode is a loop. Its basis (bench/speech):
 * the "uh, uh, …" loop of mfa_uhuh.flac squeezes 24 of its 30 words into its last
 * second; 3 × 8 s of a looped talking head, 0 of 54.
 */
export const MAX_SQUEEZED_WORD_SHARE = 0.2;

/** What tells a loop from heard repetition: how well the text compresses, and Whisper's word times. */
type LoopEvidence = Pick<WhisperSegment, 'compression_ratio'> & {
  words?: WhisperSegment['words'];
  text?: string;
};

/**
 * Fewest back-to-back repeats of a syllable (1–4 letters) inside one word that make it a loop.
 * Its basis: Whisper base, stopped early by a too-low token bound, went on with
 * "riferodemememe…" (50 times) and "plebibibi…"; people write laughter "hahaha", a long
 * "hmmmm", rarely eight of one syllable.
 */
export const MIN_IN_WORD_REPEATS = 8;
/** A syllable of letters (never digits: "1000000000" is a number) repeated MIN_IN_WORD_REPEATS+ times. */
const IN_WORD_LOOP = new RegExp(`([\\p{L}\\p{M}]{1,4}?)\\1{${MIN_IN_WORD_REPEATS - 1},}`, 'gu');

/** Pure: whether a text has a loop inside one of its words. */
export function hasInWordLoop(text: string): boolean {
  return text.search(IN_WORD_LOOP) !== -1; // search ignores the global regex's lastIndex
}

/**
 * Pure: a word with each loop inside it cut to two of its syllable.
 * @example cutInWordLoop('plebibibibibibibibibi') // 'plebibi'
 * @example cutInWordLoop('Hmmmmmmmmmm') // 'Hmm'
 */
export function cutInWordLoop(word: string): string {
  return word.replace(IN_WORD_LOOP, '$1$1');
}

/**
 * Pure: whether a decoded segment is a decoding loop, to be decoded again (with a repetition
 * penalty) or dropped. A word that loops inside itself (`hasInWordLoop`) makes it one. Otherwise only a segment that
 * compresses like a loop can be one; it is not when its words carry times (the worker times
 * those of every such segment) and few of them are squeezed into no audio: each repeat was
 * heard. Without word times, compressing like a loop is taken as one (OpenAI's rule).
 * @example isDecodingLoop({ compression_ratio: 1.2, words: [] }) // false
 */
export function isDecodingLoop(s: LoopEvidence): boolean {
  const words = s.words ?? [];
  if (hasInWordLoop(s.text ?? words.map((w) => w.word).join(' '))) return true;
  if (s.compression_ratio <= MAX_COMPRESSION_RATIO) return false;
  if (words.length === 0) return true;
  const squeezed = words.filter((w) => w.end - w.start < MIN_HEARD_WORD_SEC).length;
  return squeezed / words.length > MAX_SQUEEZED_WORD_SHARE;
}

/**
 * Pure: whether a segment repeats itself and Whisper placed the repeats over the audio: speech
 * said again (a chant, a rehearsed line), which no text rule may cut (`cutRepeatLoops`).
 */
export function isHeardRepetition(s: LoopEvidence): boolean {
  return s.compression_ratio > MAX_COMPRESSION_RATIO && !isDecodingLoop(s);
}

/**
 * Pure: whether Whisper's own scores (and, for a repetitive text, its word times) say the
 * segment is not real speech.
 * @example isHallucinatedSegment({ no_speech_prob: 0.9, avg_logprob: -1.2, compression_ratio: 1 }) // true
 */
export function isHallucinatedSegment(
  s: Pick<WhisperSegment, 'text' | 'avg_logprob' | 'no_speech_prob'> & LoopEvidence,
): boolean {
  if (s.no_speech_prob > NO_SPEECH_PROB && s.avg_logprob < LOGPROB_FOR_NO_SPEECH) return true;
  // "uh, uh, uh, uh" compresses as well as a loop; the hesitations are judged by the aligner.
  if (isDecodingLoop(s) && compressionRatio(withoutHesitations(s.text)) > MAX_COMPRESSION_RATIO) return true;
  return s.avg_logprob < MIN_AVG_LOGPROB;
}

/**
 * Whisper's no-speech probability from which a re-decoded tail is taken for silence. Lower than
 * OpenAI's 0.6 for any window, because such a tail follows Whisper's own end of the utterance
 * (the first window's decode stopped before the audio did) and is mostly the VAD's padding.
 * Its basis (docs/languages.md): over the 78 clips of five languages of the speech sets, the 21
 * tails that were invented text ("Das ist nicht so.", "E aí!", "non non non…", "Je vous invite
 * à faire une nouvelle vidéo…") had 0.41 to 0.77, the 2 with spoken words 0.28 and 0.36; over 96
 * English clips decoded with word times, 7 invented tails ("Thank you very much.") 0.56 to 0.70,
 * 4 with speech ("in writing.", "Voyager?") 0.21 to 0.35.
 */
export const TAIL_NO_SPEECH_PROB = 0.4;

/**
 * Longest later window judged by its no-speech probability, seconds (from where it began to its
 * last segment's end). The invented tails of the speech sets spanned 0.06–0.64 s; a longer one is
 * speech Whisper had stopped before (two such windows of French conversation: 2.6 and 3.2 s), and
 * it is kept whatever its score: noisy speech must not lose seconds of words to this rule.
 */
export const MAX_TAIL_SEC = 1;

/**
 * Pure: whether a segment comes from a short later decode window of its utterance (Whisper
 * stopped before the audio did and the rest was decoded again) that Whisper doubts is speech.
 * On the short tail after the last word Whisper invents text, often a loop. `windowEnd` is the
 * latest end of the segments of the segment's window.
 * @example isDoubtedTail({ window_start: 3.2, no_speech_prob: 0.55 }, 0.5, 3.4) // true
 */
export function isDoubtedTail(
  s: Pick<WhisperSegment, 'window_start' | 'no_speech_prob'>,
  firstWindowStart: number | undefined,
  windowEnd: number,
): boolean {
  return (
    s.window_start !== undefined &&
    firstWindowStart !== undefined &&
    s.window_start > firstWindowStart &&
    windowEnd - s.window_start <= MAX_TAIL_SEC &&
    s.no_speech_prob >= TAIL_NO_SPEECH_PROB
  );
}

/** Pure: an utterance's segments without its doubted tails (`isDoubtedTail`). */
export function withoutDoubtedTails<
  S extends Pick<WhisperSegment, 'window_start' | 'no_speech_prob' | 'end'>,
>(segments: readonly S[]): S[] {
  const first = segments[0]?.window_start;
  const windowEnds = new Map<number | undefined, number>();
  for (const s of segments)
    windowEnds.set(s.window_start, Math.max(windowEnds.get(s.window_start) ?? s.end, s.end));
  return segments.filter((s) => !isDoubtedTail(s, first, windowEnds.get(s.window_start) ?? s.end));
}

/** Pure: whether an utterance's decode loops outside its doubted tails (those are dropped anyway). */
export function hasDecodingLoop(segments: readonly WhisperSegment[]): boolean {
  return withoutDoubtedTails(segments).some(isDecodingLoop);
}

/** Pure: Whisper's compression ratio (UTF-8 bytes / zlib-compressed bytes) of a text. */
export function compressionRatio(text: string): number {
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length === 0 ? 0 : bytes.length / deflateSync(bytes).length;
}

const withoutHesitations = (text: string): string =>
  text
    .split(/\s+/)
    .filter((w) => !isHesitation(w))
    .join(' ');

/** Longest repeated phrase looked for, words. */
const MAX_LOOP_WORDS = 8;
/** A phrase of 2+ words repeated this many times in a row is a loop. */
const MIN_PHRASE_REPEATS = 3;
/** A single word repeated this many times in a row is a loop (unless a hesitation). */
const MIN_WORD_REPEATS = 4;

/**
 * Pure: whether a raw word ("Umm,", "Äh,") is a hesitation sound of any language the analytics
 * know: the guards must never cut "äh, äh, äh" as a loop.
 */
export const isHesitation = (w: string): boolean => isHesitationNorm(normalizeWord(w));

/**
 * More hesitations than this heard by the aligner in one utterance beyond those Whisper wrote
 * suggest that the decode skipped speech (the aligner takes unwritten words for "uh"/"hmm"). Real
 * runs of hesitations are written by Whisper under the disfluent prompt, so they do not count.
 */
export const MAX_ADDED_HESITATIONS = 3;

/** Pure: the hesitations in `aligned` beyond those in `written` (never negative). */
export function addedHesitations(
  written: ReadonlyArray<{ word: string }>,
  aligned: ReadonlyArray<{ word: string }>,
): number {
  const count = (ws: ReadonlyArray<{ word: string }>) => ws.filter((w) => isHesitation(w.word)).length;
  return Math.max(0, count(aligned) - count(written));
}

/** Pure: the words that are not hesitations. */
export const lexicalWords = (words: ReadonlyArray<{ word: string }>): number =>
  words.filter((w) => !isHesitation(w.word)).length;

/**
 * Fewer words than this per second of speech in an utterance also suggest a skipped sentence,
 * however few hesitations the aligner added: people say 2–3 words a second, the slowest speaker
 * of the speech sets (the shared disfluent clips) about one. Found on a tune clip whose prompted
 * decode kept one of its three read sentences (docs/languages.md, "Too few words for the speech").
 */
export const MIN_WORDS_PER_SPEECH_SEC = 1;

/** Pure: fewer words (hesitations aside) than `MIN_WORDS_PER_SPEECH_SEC` for `speechSec` of speech. */
export const tooFewWords = (words: ReadonlyArray<{ word: string }>, speechSec: number): boolean =>
  lexicalWords(words) < MIN_WORDS_PER_SPEECH_SEC * speechSec;

/**
 * Pure: whether a decode may have skipped speech: the aligner heard more hesitations than Whisper
 * wrote (`MAX_ADDED_HESITATIONS`), or it has too few words for its seconds of speech.
 */
export function maySkipSpeech(
  written: ReadonlyArray<{ word: string }>,
  aligned: ReadonlyArray<{ word: string }>,
  speechSec: number,
): boolean {
  return addedHesitations(written, aligned) > MAX_ADDED_HESITATIONS || tooFewWords(written, speechSec);
}

/**
 * Seconds of the VAD's speech in an utterance left without a word near it (`WORD_TIME_MARGIN_SEC`)
 * from which its prompted decode is suspected of skipping speech. Whisper, prompted, left the
 * first 2.5 s of a read French clip ("Pulls shetland, tailles 36 à 46, …") and a whole Portuguese
 * sentence of 3 s in a minute of the set's clips undecoded; it wrote both without the prompt.
 */
export const MAX_UNCOVERED_SPEECH_SEC = 1;

/**
 * How far from a word Whisper's own (cross-attention) time may put speech that still belongs to
 * it, seconds: those times are rough, and the VAD pads its segments.
 */
export const WORD_TIME_MARGIN_SEC = 0.5;

/**
 * Pure: `maySkipSpeech` for a decode that keeps Whisper's own word times (no aligner to hear what
 * is missing): its words leave at least `MAX_UNCOVERED_SPEECH_SEC` of the utterance's speech
 * farther than `WORD_TIME_MARGIN_SEC` from every word (`uncoveredSpeechSec`), or are too few for it.
 */
export function leavesSpeechUnwritten(
  words: ReadonlyArray<{ word: string; start: number; end: number }>,
  utterance: TimeSegment,
  speech: readonly TimeSegment[] | undefined,
): boolean {
  return (
    tooFewWords(words, speechSecondsIn(utterance, speech)) ||
    uncoveredSpeechSec(utterance, speech, words, WORD_TIME_MARGIN_SEC) >= MAX_UNCOVERED_SPEECH_SEC
  );
}

const norm = normalizeWord;

/**
 * Pure: cuts back-to-back repetitions of a phrase to its first occurrence. Returns the indices
 * (into `words`) to keep, in order.
 * @example cutRepeatLoops(['thank','you','thank','you','thank','you']) // [0, 1]
 */
export function cutRepeatLoops(words: readonly string[]): number[] {
  const n = words.map(norm);
  const keep: number[] = [];
  for (let i = 0; i < n.length;) {
    let skipped = false;
    for (let len = MAX_LOOP_WORDS; len >= 1; len--) {
      const need = len === 1 ? MIN_WORD_REPEATS : MIN_PHRASE_REPEATS;
      if (i + len * need > n.length) continue;
      if (len === 1 && (isHesitationNorm(n[i]) || n[i] === '')) continue;
      let reps = 1;
      while (i + (reps + 1) * len <= n.length && sameRun(n, i, i + reps * len, len)) reps++;
      if (reps >= need) {
        for (let k = i; k < i + len; k++) keep.push(k);
        i += reps * len;
        skipped = true;
        break;
      }
    }
    if (!skipped) keep.push(i++);
  }
  return keep;
}

function sameRun(n: readonly string[], a: number, b: number, len: number): boolean {
  for (let k = 0; k < len; k++) if (n[a + k] !== n[b + k]) return false;
  return true;
}
