/**
 * @module containers/media/engines/asr/language
 * Pure rules around Whisper's language detection (`asr_worker.py` answers a detection request
 * with the probabilities averaged over windows of 30 s of speech): how many windows to read,
 * and what a caller must be told when the answer is unsure or the language seems to change.
 */
import type { TimeSegment } from '../../../../src/contract/media.js';

/** The worker's answer to a detection request. */
export interface LanguageDetection {
  language: string | null;
  language_probability: number | null;
  speech_sec: number;
  candidates: Array<[language: string, probability: number]>;
  windows: Array<{ language: string; probability: number; speech_sec: number }>;
}

/** Seconds of speech per detection window (one Whisper window). */
const WINDOW_SEC = 30;
/** Most windows read: the first, middle and last stretch of speech of a long file. */
export const MAX_DETECTION_WINDOWS = 3;
/** Below this probability the detected language is reported as unsure. */
export const LANGUAGE_MIN_PROBABILITY = 0.5;
/** A window this sure of another language than the file's suggests the language changes. */
const WINDOW_CHANGE_PROBABILITY = 0.8;

/** Pure: the windows to read for these utterances: one per minute of speech, 1 to 3. */
export function detectionWindows(utterances: readonly TimeSegment[]): number {
  const speech = utterances.reduce((s, u) => s + Math.max(0, u.end - u.start), 0);
  return Math.min(MAX_DETECTION_WINDOWS, Math.max(1, Math.ceil(speech / (2 * WINDOW_SEC))));
}

const pct = (p: number) => `${Math.round(p * 100)} %`;

/**
 * Pure: the warnings of a detection: an unsure language (the transcript is in the likeliest
 * one, which may be wrong on little or noisy speech) and windows that hear another language.
 */
export function detectionWarnings(d: LanguageDetection): string[] {
  const out: string[] = [];
  if (d.language && d.language_probability !== null && d.language_probability < LANGUAGE_MIN_PROBABILITY) {
    const others = d.candidates
      .slice(1)
      .map(([l, p]) => `${l} ${pct(p)}`)
      .join(', ');
    out.push(
      `the spoken language is uncertain: transcribed as ${d.language} (${pct(d.language_probability)} over ${d.speech_sec} s of speech${others ? `; then ${others}` : ''}); pass language= to set it`,
    );
  }
  const changed = d.windows.filter(
    (w) => w.language !== d.language && w.probability >= WINDOW_CHANGE_PROBABILITY,
  );
  if (d.language && changed.length > 0) {
    out.push(
      `part of the speech sounds like another language (${changed.map((w) => `${w.language} ${pct(w.probability)}`).join(', ')}); all of it was transcribed as ${d.language}`,
    );
  }
  return out;
}
