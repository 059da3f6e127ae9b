/**
 * @module containers/media/engines/asr/token-density
 * How many tokens Whisper needs per second of a language's speech, as a bound on a decode.
 *
 * The worker stops a decode after `maxTokensPerSecond × seconds` new tokens, so a decode stuck in
 * a loop ("uh, uh, uh, …" to the end of the window) costs little. English speech takes 3–5 tokens
 * a second and the bound is 12. But Whisper's byte-level tokenizer was fit mostly to English, and
 * other scripts cost more tokens for the same words: Article 1 of the Universal Declaration of
 * Human Rights takes 37 tokens in English, 195 in Hindi, 425 in Georgian
 * (`npx tsx bench/speech/token-density.ts`). With English's bound, real Greek speech (CSS10, 5.5 s)
 * was cut mid-word ("δια Θα βάτε" for "διαβάτε"), and real Telugu came out as a run of one
 * syllable: Whisper continued the capped decode in a new window, which looped.
 */

/** New tokens per second of audio a decode of English may generate. */
export const ENGLISH_MAX_TOKENS_PER_SEC = 12;

/**
 * Whisper tokens of Article 1 of the UDHR in each language, per token of the English text,
 * rounded up to 0.1 (`bench/speech/token-density.ts` measures them; `bench/speech/udhr-article1.json`).
 */
export const TOKEN_DENSITY: Readonly<Record<string, number>> = {
  en: 1,
  es: 1.2,
  de: 1.2,
  pt: 1.3,
  ru: 1.3,
  zh: 1.3,
  fr: 1.4,
  tr: 1.4,
  yue: 1.5,
  it: 1.5,
  nl: 1.5,
  pl: 1.6,
  cs: 1.7,
  ko: 1.8,
  uk: 1.8,
  ar: 1.9,
  fi: 1.9,
  he: 2,
  hu: 2,
  ja: 2.2,
  vi: 2.3,
  ur: 2.5,
  fa: 2.6,
  el: 2.7,
  yo: 3.2,
  th: 3.5,
  ta: 3.8,
  hy: 4.9,
  hi: 5.3,
  am: 6.8,
  kn: 7.2,
  te: 8,
  bn: 9.1,
  gu: 11.4,
  ka: 11.5,
  ml: 11.7,
};

/** The script a language is usually written in (Unicode's likely subtags, as ICU has them). */
function scriptOf(language: string): string | undefined {
  try {
    return new Intl.Locale(language).maximize().script;
  } catch {
    return undefined;
  }
}

/** The densest measured language per script: the bound for the script's unmeasured languages. */
const SCRIPT_DENSITY: ReadonlyMap<string, number> = (() => {
  const byScript = new Map<string, number>();
  for (const [language, density] of Object.entries(TOKEN_DENSITY)) {
    const script = scriptOf(language);
    if (script) byScript.set(script, Math.max(byScript.get(script) ?? 0, density));
  }
  return byScript;
})();

/** For a script none of the measured languages use: the densest of all, so no speech is cut. */
const UNMEASURED_DENSITY = Math.max(...Object.values(TOKEN_DENSITY));

/**
 * Pure: Whisper tokens a language spends where English spends one. A language that was not
 * measured takes the densest measured language of its script (Marathi: Hindi's), and one of
 * another script the densest of all: a generous bound only makes a loop cost more.
 * @example tokenDensity('hi') // 5.3
 * @example tokenDensity('mr') // 5.3 (Devanagari, as Hindi)
 */
export function tokenDensity(language: string): number {
  const measured = TOKEN_DENSITY[language];
  if (measured !== undefined) return measured;
  const script = scriptOf(language);
  return (script && SCRIPT_DENSITY.get(script)) || UNMEASURED_DENSITY;
}

/**
 * Pure: new tokens per second of audio a decode in this language may generate (the worker's
 * `max_tokens_per_sec`).
 * @example maxTokensPerSecond('en') // 12
 */
export function maxTokensPerSecond(language: string): number {
  return Math.round(ENGLISH_MAX_TOKENS_PER_SEC * tokenDensity(language) * 10) / 10;
}
