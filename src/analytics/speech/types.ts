/**
 * @module analytics/speech/types
 * Inputs, options and the internal token shape shared by the speech analytics.
 */
import type { ProsodyTrack, TimedWord, TimeSegment } from '../../contract/media';

/** Everything the speech analytics need; all times in seconds from the start of the media. */
export interface SpeechInput {
  /** Recognised words in any order (sorted internally). Non-speech markers are dropped. */
  words: TimedWord[];
  /** Speech segments from voice-activity detection; may be empty (then only word gaps count). */
  speech_segments: TimeSegment[];
  /** Total media duration, reported as `summary.duration_sec`. */
  duration_sec: number;
  /** Pitch/energy track from {@link computeProsody}; without it style/emotion use words only. */
  prosody?: ProsodyTrack;
  /** The words' language, ISO 639-1 (`de`); default English. See languages.ts. */
  language?: string | null;
}

/**
 * Tunable thresholds. Every field is optional; defaults (and their sources) are in
 * `DEFINITIONS.md` and on the constants in each module.
 */
export interface SpeechOptions {
  /** Shortest silence reported as a pause, seconds. Default 0.25 (Goldman-Eisler 1968). */
  minPauseSec?: number;
  /** A pause at least this long has `is_long: true`, seconds. Default 1.0 (Campione & Véronis 2002). */
  longPauseSec?: number;
  /** A silence at least this long next to a word marks a prosodic boundary for filler detection, seconds. Default 0.15. */
  fillerBoundarySec?: number;
  /** Unpunctuated transcripts are cut into sentences of at most this many words. Default 20. */
  maxSentenceWords?: number;
  /** Window of the moving-average type/token ratio (MATTR), words. Default 50. */
  diversityWindow?: number;
}

/** One word after clean-up, with what the analytics need to know about it. */
export interface Token {
  /** Index in the cleaned, time-sorted token list. */
  index: number;
  /** As spoken, for the transcript: trimmed, engine markup removed (`++UM++` → `um`), punctuation kept. */
  text: string;
  /** Lowercase, punctuation stripped (inner apostrophes and hyphens kept): `"Don't,"` → `don't`. */
  norm: string;
  start: number;
  end: number;
  confidence: number;
  /** A non-lexical hesitation sound (um, uh, er…). */
  hesitation: boolean;
  /** The raw word ended with punctuation that closes a clause (`, ; : . ! ? …` or a dash). */
  clauseEnd: boolean;
  /** The raw word ended with sentence-final punctuation (`. ! ? …`). */
  sentenceEnd: boolean;
}
