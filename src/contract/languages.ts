/**
 * @module contract/languages
 * The spoken languages the recogniser (Whisper base, multilingual) transcribes, by the codes
 * Whisper uses: ISO 639-1 where one exists (`de`, `es`), ISO 639-2 for Hawaiian (`haw`). The
 * `language` option of analyze-video takes one of them; the result's `language` is one of them.
 */
export const SPOKEN_LANGUAGES = [
  'af',
  'am',
  'ar',
  'as',
  'az',
  'ba',
  'be',
  'bg',
  'bn',
  'bo',
  'br',
  'bs',
  'ca',
  'cs',
  'cy',
  'da',
  'de',
  'el',
  'en',
  'es',
  'et',
  'eu',
  'fa',
  'fi',
  'fo',
  'fr',
  'gl',
  'gu',
  'ha',
  'haw',
  'he',
  'hi',
  'hr',
  'ht',
  'hu',
  'hy',
  'id',
  'is',
  'it',
  'ja',
  'jw',
  'ka',
  'kk',
  'km',
  'kn',
  'ko',
  'la',
  'lb',
  'ln',
  'lo',
  'lt',
  'lv',
  'mg',
  'mi',
  'mk',
  'ml',
  'mn',
  'mr',
  'ms',
  'mt',
  'my',
  'ne',
  'nl',
  'nn',
  'no',
  'oc',
  'pa',
  'pl',
  'ps',
  'pt',
  'ro',
  'ru',
  'sa',
  'sd',
  'si',
  'sk',
  'sl',
  'sn',
  'so',
  'sq',
  'sr',
  'su',
  'sv',
  'sw',
  'ta',
  'te',
  'tg',
  'th',
  'tk',
  'tl',
  'tr',
  'tt',
  'uk',
  'ur',
  'uz',
  'vi',
  'yi',
  'yo',
  'zh',
] as const;
export type SpokenLanguage = (typeof SPOKEN_LANGUAGES)[number];

const SET: ReadonlySet<string> = new Set(SPOKEN_LANGUAGES);

/** True when `code` is one of SPOKEN_LANGUAGES. */
export function isSpokenLanguage(code: string): code is SpokenLanguage {
  return SET.has(code);
}

/** Where Unicode's canonical language code is not the one Whisper uses. */
const WHISPER_CODE: Readonly<Record<string, SpokenLanguage>> = {
  jv: 'jw', // Javanese
  nb: 'no', // Norwegian Bokmål
  fil: 'tl', // Filipino: Tagalog
};

/**
 * Pure: the Whisper code of a language tag as people write it (BCP 47, any case, `-` or `_`;
 * ISO 639-2 and -3 codes): `de-DE`, `EN_us`, `deu`, `pt-BR` → `de`, `en`, `de`, `pt`. The region
 * and script do not change what Whisper hears. A tag of no language Whisper knows is returned
 * as it came, for the caller's check to refuse.
 * @example spokenLanguageOf('de-DE') // 'de'
 * @example spokenLanguageOf('english') // 'english'
 */
export function spokenLanguageOf(tag: string): string {
  if (isSpokenLanguage(tag)) return tag;
  let language: string;
  try {
    language = new Intl.Locale(tag.replace(/_/g, '-')).language; // canonical: deu → de, iw → he
  } catch {
    return tag;
  }
  const code = WHISPER_CODE[language] ?? language;
  return isSpokenLanguage(code) ? code : tag;
}
