/**
 * @module containers/media/engines/tts/espeak-voices
 * Which espeak-ng voice speaks a text in a language other than English (voice_generator 0's
 * neural voice is English): Debian's espeak-ng names most voices by their ISO 639-1 code, a few
 * otherwise, and has none for some languages the text detector names (`text-language.ts`).
 */

/** The variant every language's voice is given (that of the English fallback, `espeak.ts`). */
export const ESPEAK_VARIANT = '+m3';

/** Voices named otherwise than their language's ISO 639-1 code (with a variant, only these names work). */
const VOICE_NAMES: Readonly<Record<string, string>> = { zh: 'cmn', no: 'nb' };

/** Languages the text detector names that Debian's espeak-ng has no voice or no dictionary for. */
const NO_VOICE = new Set(['be', 'lo', 'tl', 'yo']);

/**
 * Pure: the espeak-ng voice (with its variant) of `language`, or null when there is none.
 * @example espeakVoiceOf('es') // 'es+m3'
 */
export function espeakVoiceOf(language: string): string | null {
  if (NO_VOICE.has(language)) return null;
  return `${VOICE_NAMES[language] ?? language}${ESPEAK_VARIANT}`;
}

/** Why a text is not spoken, where the only voice of its language would say something else. */
export const REFUSALS = {
  kanji:
    'voice_generator 0 cannot speak this Japanese text: its only Japanese voice (espeak-ng) reads kana, not kanji (each would be spoken as "Chinese letter"). Write the description in kana, send the speech as audio (voice_generator 2), or use voice_generator 1',
  chinese:
    "voice_generator 0 cannot speak Chinese: its only Chinese voice (Debian's espeak-ng) speaks each syllable's tone as an English number. Send the speech as audio (voice_generator 2), or use voice_generator 1",
} as const;

/** Pure: why espeak-ng's voice of `language` cannot speak `text`, or null when it can. */
export function unspeakableBecause(language: string, text: string): string | null {
  if (language === 'zh') return REFUSALS.chinese;
  return language === 'ja' && /\p{Script=Han}/u.test(text) ? REFUSALS.kanji : null;
}

/**
 * A language's English name with its code ("Spanish (es)"), for notes a person reads.
 * @example languageName('es') // 'Spanish (es)'
 */
export function languageName(code: string): string {
  const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(code);
  return name && name !== code ? `${name} (${code})` : code;
}
