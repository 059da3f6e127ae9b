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

/** The likeliest languages Whisper hears in one utterance, with their probabilities. */
export type HeardLanguages = Array<[language: string, probability: number]>;

/** At least this sure of another language, an utterance may belong to a stretch in it. */
export const STRETCH_MIN_PROBABILITY = 0.9;
/** A stretch of another language spans at least this many seconds of utterances. */
export const MIN_STRETCH_SEC = 10;

/** Consecutive utterances (indices in their plan) that Whisper hears in another language. */
export interface LanguageStretch {
  language: string;
  /** Their lowest probability of that language. */
  probability: number;
  start: number;
  end: number;
  utterances: number[];
}

/**
 * Pure: the stretches of consecutive utterances that Whisper hears, each at least
 * STRETCH_MIN_PROBABILITY, in one language other than `fileLanguage`, spanning at least
 * MIN_STRETCH_SEC, and leaving some of the file in its language. A shorter run (a quoted phrase,
 * a name, an accent on a few words) stays in the file's language.
 * @example otherLanguageStretches({ planned: [{ start: 0, end: 5 }, { start: 6, end: 18 }], heard: [[['de', 0.9]], [['en', 0.97]]] }, 'de')
 * // [{ language: 'en', probability: 0.97, start: 6, end: 18, utterances: [1] }]
 */
export function otherLanguageStretches(
  decode: { planned: readonly TimeSegment[]; heard: ReadonlyArray<HeardLanguages | undefined> },
  fileLanguage: string,
): LanguageStretch[] {
  const runs: LanguageStretch[] = [];
  decode.planned.forEach((u, i) => {
    const [language, probability] = decode.heard[i]?.[0] ?? [fileLanguage, 0];
    const other = language !== fileLanguage && probability >= STRETCH_MIN_PROBABILITY;
    const last = runs.at(-1);
    if (!other) return;
    if (last && last.language === language && last.utterances.at(-1) === i - 1) {
      last.end = u.end;
      last.probability = Math.min(last.probability, probability);
      last.utterances.push(i);
    } else runs.push({ language, probability, start: u.start, end: u.end, utterances: [i] });
  });
  // A run over every utterance is no stretch: the whole file is then in one language, which the
  // detection (and its trials) decide.
  return runs.filter(
    (r) => r.end - r.start >= MIN_STRETCH_SEC && r.utterances.length < decode.planned.length,
  );
}

/**
 * Pure: the language most of the speech is in once `switched` stretches are in their own: a
 * stretches' language when its utterances span more seconds than the rest (`fileLanguage`'s).
 * @example mainLanguage([{ start: 0, end: 10 }, { start: 11, end: 40 }], [{ language: 'en', start: 11, end: 40, … }], 'de') // 'en'
 */
export function mainLanguage(
  planned: readonly TimeSegment[],
  switched: readonly LanguageStretch[],
  fileLanguage: string,
): string {
  const languageOf = new Map(switched.flatMap((s) => s.utterances.map((i) => [i, s.language] as const)));
  const seconds = new Map<string, number>([[fileLanguage, 0]]);
  planned.forEach((u, i) => {
    const language = languageOf.get(i) ?? fileLanguage;
    seconds.set(language, (seconds.get(language) ?? 0) + u.end - u.start);
  });
  return [...seconds].reduce((best, next) => (next[1] > best[1] ? next : best))[0];
}

/** Seconds of speech per detection window (one Whisper window). */
const WINDOW_SEC = 30;
/** Most windows read: the first, middle and last stretch of speech of a long file. */
export const MAX_DETECTION_WINDOWS = 3;
/** Below this probability the detected language is reported as unsure. */
export const LANGUAGE_MIN_PROBABILITY = 0.5;
/** A window this sure of another language than the file's suggests the language changes. */
const WINDOW_CHANGE_PROBABILITY = 0.8;

/** Pure: seconds of speech in the utterances. */
export function speechSeconds(utterances: readonly TimeSegment[]): number {
  return utterances.reduce((s, u) => s + Math.max(0, u.end - u.start), 0);
}

/** Pure: the windows to read for these utterances: one per minute of speech, 1 to 3. */
export function detectionWindows(utterances: readonly TimeSegment[]): number {
  return Math.min(
    MAX_DETECTION_WINDOWS,
    Math.max(1, Math.ceil(speechSeconds(utterances) / (2 * WINDOW_SEC))),
  );
}

/**
 * An utterance with at least this many seconds of speech is read as a detection window of its
 * own: its decode then reads the detection's encoder output again (the worker's EncoderCache)
 * instead of encoding the same window twice. With less, the speech of several utterances is
 * read together, as Whisper names a language better on a full window.
 */
export const OWN_DETECTION_WINDOW_MIN_SEC = 15;

/**
 * Pure: the utterance to read as the first detection window, or undefined: the one with the
 * most speech (`speechSecondsOf`; the first of equals) when it has `OWN_DETECTION_WINDOW_MIN_SEC`
 * of speech, or the only one (then the window holds the same speech either way). Why any
 * utterance and not only the first: a file that opens with a short sentence would otherwise
 * have its speech read together in a window no decode reads, one encoder pass more.
 * @example ownDetectionWindow([{ start: 0, end: 6 }], () => 5) // { start: 0, end: 6 }
 */
export function ownDetectionWindow(
  utterances: readonly TimeSegment[],
  speechSecondsOf: (utterance: TimeSegment) => number,
): TimeSegment | undefined {
  if (utterances.length === 1) return utterances[0];
  let best: TimeSegment | undefined;
  let bestSec = OWN_DETECTION_WINDOW_MIN_SEC;
  for (const u of utterances) {
    const sec = speechSecondsOf(u);
    if (sec > bestSec || (sec === bestSec && !best)) [best, bestSec] = [u, sec];
  }
  return best;
}

/**
 * Pure: the utterances the detection reads together besides `own` (all of them when none):
 * those whose middle is outside it. Why the middle: `utterances` may be planned with
 * less padding than `own`, so the same speech has slightly other bounds.
 * @example speechBesides([{ start: 0, end: 5 }, { start: 6.2, end: 30 }], { start: 5.9, end: 30 }) // [{ start: 0, end: 5 }]
 */
export function speechBesides(
  utterances: readonly TimeSegment[],
  own: TimeSegment | undefined,
): TimeSegment[] {
  if (!own) return [...utterances];
  return utterances.filter((u) => {
    const middle = (u.start + u.end) / 2;
    return middle < own.start || middle > own.end;
  });
}

/**
 * Pure: the utterances whose windows the worker's other slots encode while one slot detects the
 * language: the first ones the decode lanes will take that the detection does not encode itself
 * (`own`), one per other slot.
 * @example encodedWhileDetecting([a, b, c], a, 2) // [b]
 */
export function encodedWhileDetecting(
  utterances: readonly TimeSegment[],
  own: TimeSegment | undefined,
  workers: number,
): TimeSegment[] {
  return utterances.slice(own ? 1 : 0, (own ? 1 : 0) + Math.max(0, workers - 1));
}

/** Longest speech decoded in more than one language to settle an unsure detection, seconds. */
export const MAX_TRIAL_SPEECH_SEC = 60;
/**
 * Below this probability a short file is also decoded in the other likely languages. Higher
 * than the warning's threshold: accented English read as Spanish at 0.6 must not come back in
 * Spanish, and another decode of under a minute of speech is cheap next to that.
 */
export const TRIAL_BELOW_PROBABILITY = 0.8;
/** Another language at least this probable is decoded too when the detection is unsure. */
const MIN_TRIAL_PROBABILITY = 0.1;
/** Most languages decoded to settle an unsure detection (the likeliest and two more). */
export const MAX_TRIAL_LANGUAGES = 3;

/**
 * Pure: the languages to decode. One, the likeliest, when the detection is sure (≥ 0.8) or the
 * speech is long; when it is unsure on at most a minute of speech (a few words of robotic or
 * accented speech read as Finnish, say), also the next likeliest ones with ≥ 0.1 each, up to
 * three in all: the decode whose words Whisper finds likelier (`decodeScore`) is kept. Whisper's
 * language head sees 30 s of audio once; the decoder's log-probabilities weigh every word. Why
 * three: the order of close candidates depends on the CPU's kernels (3.6 s of robotic English
 * came out Finnish, English, Nynorsk with CTranslate2's oneDNN kernels on AMD, and Finnish,
 * Nynorsk, English with Intel MKL's), and the language spoken must be among those decoded.
 */
export function trialLanguages(d: LanguageDetection, speechSec: number): string[] {
  const [first, ...others] = d.candidates;
  if (!first) return [d.language ?? 'en'];
  const unsure = first[1] < TRIAL_BELOW_PROBABILITY && speechSec <= MAX_TRIAL_SPEECH_SEC;
  if (!unsure) return [first[0]];
  const likely = others.filter(([, p]) => p >= MIN_TRIAL_PROBABILITY).map(([language]) => language);
  return [first[0], ...likely.slice(0, MAX_TRIAL_LANGUAGES - 1)];
}

/**
 * Pure: how likely Whisper finds its own decode: the mean of the segments' average token
 * log-probabilities, weighted by their text length (−∞ without text).
 */
export function decodeScore(segments: ReadonlyArray<{ text: string; avg_logprob: number }>): number {
  let weight = 0;
  let sum = 0;
  for (const s of segments) {
    const n = s.text.trim().length;
    weight += n;
    sum += n * s.avg_logprob;
  }
  return weight > 0 ? sum / weight : Number.NEGATIVE_INFINITY;
}

/**
 * How much likelier (mean log-probability per token) another language's decode must be to
 * overrule the detected one. Close languages decode alike (a Spanish clip scored −0.42 in
 * Spanish and −0.44 in Galician); a wrong detection is far apart (3.6 s of robotic English: −0.43
 * in Finnish, −0.24 in English).
 */
export const TRIAL_MARGIN = 0.1;

/**
 * A runner-up the detection heard at least this share as likely as its first is a tie: the
 * language head cannot tell them apart (a Spanish read sentence: Galician 46.2 %, Spanish 45.8 %),
 * so there is no choice of the detection's to defend and the likelier decode decides alone.
 */
export const DETECTION_TIE = 0.9;

/** A trial decode: its language, `decodeScore`, and the detection's probability of the language. */
export interface TrialScore {
  language: string;
  score: number;
  probability?: number;
}

/**
 * Pure: the language kept after trial decodes, in `trialLanguages` order (the likeliest
 * detection first): another one when its decode beats the first by TRIAL_MARGIN, or at all when
 * the detection heard the two alike (DETECTION_TIE).
 */
export function pickDecode(scores: readonly TrialScore[]): string {
  const [first, ...others] = scores;
  const tied = (o: TrialScore) =>
    o.probability !== undefined &&
    first.probability !== undefined &&
    o.probability >= DETECTION_TIE * first.probability;
  const better = others.filter((o) =>
    tied(o) ? o.score > first.score : o.score - first.score >= TRIAL_MARGIN,
  );
  return better.length > 0 ? better.reduce((b, o) => (o.score > b.score ? o : b)).language : first.language;
}

/**
 * Pure: the probability of `language`, the one (most of) the words are in: the likeliest's when
 * it was kept, a runner-up's when its decode overruled the detection; for the language of
 * `switched` stretches, the lowest at which their utterances were heard in it (null if none).
 */
export function probabilityOf(
  d: LanguageDetection,
  language: string,
  switched: readonly LanguageStretch[] = [],
): number | null {
  const stretches = switched.filter((s) => s.language === language);
  if (stretches.length > 0) return Math.min(...stretches.map((s) => s.probability));
  if (language === d.language) return d.language_probability;
  return d.candidates.find(([l]) => l === language)?.[1] ?? null;
}

const pct = (p: number) => `${Math.round(p * 100)} %`;

/** Pure: "fi", "fi and en", "fi, nn and en". */
const listed = (xs: readonly string[]) =>
  xs.length > 1 ? `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}` : xs.join('');

/**
 * Pure: the warnings of a detection: an unsure language (with the languages decoded to settle
 * it and the one kept), each stretch `switched` to its own language (`main`: the result's
 * language, whose rules the analytics apply), and, when none was, windows that hear another
 * language than the one kept.
 */
export function detectionWarnings(
  d: LanguageDetection,
  chosen: string,
  tried: readonly string[] = [chosen],
  switched: readonly LanguageStretch[] = [],
  main: string = chosen,
): string[] {
  const out: string[] = [];
  const overruled = d.language !== null && d.language !== chosen;
  if (overruled || (d.language_probability !== null && d.language_probability < LANGUAGE_MIN_PROBABILITY)) {
    const heard = d.candidates.map(([l, p]) => `${l} ${pct(p)}`).join(', ');
    const how =
      tried.length > 1
        ? `decoded as ${listed(tried)}, kept ${chosen}, the decode Whisper found likelier`
        : `transcribed as ${chosen}`;
    out.push(
      `the spoken language is uncertain (${heard} over ${d.speech_sec} s of speech): ${how}; pass language= to set it`,
    );
  }
  for (const st of switched) {
    out.push(
      `the speech from ${st.start.toFixed(1)} s to ${st.end.toFixed(1)} s is in ${st.language} (each utterance ${Math.floor(st.probability * 100)} % or more), the rest in ${chosen}: each part transcribed in its own language; the analytics read all of it by ${main}'s rules`,
    );
  }
  const changed = d.windows.filter(
    (w) => w.language !== chosen && w.probability >= WINDOW_CHANGE_PROBABILITY,
  );
  if (changed.length > 0 && switched.length === 0) {
    out.push(
      `part of the speech sounds like another language (${changed.map((w) => `${w.language} ${pct(w.probability)}`).join(', ')}); all of it was transcribed as ${chosen}`,
    );
  }
  return out;
}
