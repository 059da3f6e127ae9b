/**
 * @module analytics/speech/pace
 * Speaking pace. Rates use *speaking time*: from the first word's start to the last word's end,
 * pauses included. That is "speaking rate" in the sense of Goldman-Eisler (1968) and the rate
 * coaching norms are quoted in (≈150 WPM conversational English, NCVS); the pause-free
 * "articulation rate" would hide hesitation, which is what coaching wants to see.
 * Hesitation sounds are not words: they count as fillers, not toward WPM or word duration.
 */
import type { Pause } from './pauses';
import type { Token } from './types';

export interface PaceSummary {
  /** Lexical words per minute of speaking time; 0 without speaking time. */
  words_per_minute: number;
  /** Mean duration of lexical words, seconds; 0 without words. */
  avg_word_duration: number;
  /** Speaking time minus pause time, divided by pause time (floored at `minPauseSec`). */
  speech_to_pause_ratio: number;
  /** First word start to last word end, seconds. */
  speaking_time_sec: number;
  /** Sum of pause durations, seconds. */
  pause_time_sec: number;
  /** Number of lexical (non-hesitation) words. */
  word_count: number;
}

/**
 * Pace numbers from tokens and detected pauses.
 *
 * `speech_to_pause_ratio` = (speaking time − pause time) / max(pause time, minPauseSec).
 * Every detected pause lasts at least `minPauseSec`, so the floor only acts when there is no
 * pause at all: the ratio then stays finite and is still larger than for the same speech with
 * any pause (monotone), rather than Infinity or an arbitrary cap.
 *
 * @example
 * computePace(tokens, pauses, 0.25) // 120 words spread over 60 s → words_per_minute 120
 */
export function computePace(
  tokens: readonly Token[],
  pauses: readonly Pause[],
  minPauseSec: number,
): PaceSummary {
  const lexical = tokens.filter((t) => !t.hesitation);
  if (tokens.length === 0) {
    return {
      words_per_minute: 0,
      avg_word_duration: 0,
      speech_to_pause_ratio: 0,
      speaking_time_sec: 0,
      pause_time_sec: 0,
      word_count: 0,
    };
  }
  const lastEnd = tokens.reduce((m, t) => Math.max(m, t.end), -Infinity);
  const speaking = Math.max(0, lastEnd - tokens[0].start);
  const pauseTime = pauses.reduce((s, p) => s + p.duration, 0);
  const speech = Math.max(0, speaking - pauseTime);
  const wpm = speaking > 0 ? (lexical.length / speaking) * 60 : 0;
  const avg = lexical.length > 0 ? lexical.reduce((s, t) => s + (t.end - t.start), 0) / lexical.length : 0;
  const floor = minPauseSec > 0 ? minPauseSec : 0.25;
  return {
    words_per_minute: wpm,
    avg_word_duration: avg,
    speech_to_pause_ratio: speech / Math.max(pauseTime, floor),
    speaking_time_sec: speaking,
    pause_time_sec: pauseTime,
    word_count: lexical.length,
  };
}
