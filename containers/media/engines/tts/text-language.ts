/**
 * @module containers/media/engines/tts/text-language
 * The language a text to be spoken is written in, so that voice_generator 0 speaks a Spanish
 * description in Spanish rather than reading it with the English voice ("Boy Nostalgia is a
 * to-doce" for "Buenos días a todos"). The detector is ELD (npm `eld`, Apache-2.0, n-grams of
 * 60 languages; its smallest database, loaded on the first text that needs it). English stays
 * the default: a short text's n-grams are weak evidence (three English words are taken for
 * another language one time in five), so a text in Latin letters leaves English only when it
 * has a few words and the detector clearly prefers another language; a text in another script
 * cannot be English, and the detector names it whatever its length.
 */

/** What the detector answers: its best language (ISO 639-1, '' when it has none) and every score. */
export interface Detection {
  language: string;
  scores: Readonly<Record<string, number>>;
}

/** Fewest words by which a text in Latin letters may be other than English. */
export const MIN_WORDS_FOR_OTHER = 5;

/**
 * How much more the detector must score another language than English to prefer it: 0.1 let a
 * telephone opening ("Hi, Joe, uh, I'm gonna") be Catalan (`bench/tts/text-language.ts`).
 */
export const MIN_SCORE_LEAD = 0.15;

/**
 * Pure: the language of `text` given the detector's answer, or null when it is English or
 * unsure (the English voice reads it, as before).
 * @example languageOfText('Buenos días a todos, hoy hablamos del clima.', { language: 'es', scores: { es: 0.8, en: 0.5 } }) // 'es'
 */
export function languageOfText(text: string, detection: Detection): string | null {
  const { language, scores } = detection;
  if (!language || language === 'en') return null;
  const letters = text.match(/\p{L}/gu) ?? [];
  const latin = letters.filter((c) => /\p{Script=Latin}/u.test(c)).length;
  if (letters.length > 0 && latin < letters.length / 2) return language;
  const words = text.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length;
  if (words < MIN_WORDS_FOR_OTHER) return null;
  return (scores[language] ?? 0) - (scores.en ?? 0) >= MIN_SCORE_LEAD ? language : null;
}

type Detector = (text: string) => Detection;
let detector: Promise<Detector> | undefined;

/** ELD with its smallest database (~40 MB of heap), loaded once, on first use. */
function loadDetector(): Promise<Detector> {
  detector ??= import('eld/extrasmall').then(({ eld }) => (text: string) => {
    const result = eld.detect(text);
    return { language: result.language, scores: result.getScores() };
  });
  return detector;
}

/** The detector's answer for `text` (ELD, loaded on first use); rejects when it does not load. */
export async function detectText(text: string): Promise<Detection> {
  return (await loadDetector())(text);
}

/**
 * The language of `text` (ISO 639-1), or null for English or unsure; see `languageOfText`. A
 * detector that does not load (a broken install) leaves every text to the English voice, as
 * before it existed, and says so in the log; the next text tries again.
 */
export async function textLanguage(text: string): Promise<string | null> {
  try {
    return languageOfText(text, await detectText(text));
  } catch (err) {
    detector = undefined;
    console.warn(JSON.stringify({ level: 'warn', tts_text_language_unavailable: String(err) }));
    return null;
  }
}
