/**
 * @module analytics/speech/languages
 * What the speech analytics know of each spoken language: its hesitation sounds (filled
 * pauses, always counted as fillers), its discourse markers (counted only when set off from
 * their neighbours) and its readability formula. Every other number (pace, pauses, word
 * durations, lexical diversity) is computed the same way in any language.
 *
 * Sources of the filler sets:
 * - English: Clark & Fox Tree 2002, "Using uh and um in spontaneous speaking" (see fillers.ts).
 * - German, Dutch: Wieling et al. 2016, "Variation and change in the use of hesitation markers
 *   in Germanic languages" (äh/ähm, uh/uhm); German and Dutch markers "also", "halt", "nou",
 *   "zeg maar" after Fischer 2006, "Approaches to discourse particles".
 * - French, Spanish, Portuguese, Italian: Candea, Vasilescu & Adda-Decker 2005, "Inter- and
 *   intra-language acoustic analysis of autonomous fillers" (euh, eh/em, é/ã/hum, ehm);
 *   Spanish "este", "o sea", "pues" and Italian "cioè", "tipo", "allora" as discourse markers
 *   after Bazzanella 2006, "Discourse markers in Italian" and Martín Zorraquino & Portolés 1999;
 *   Portuguese "né", "tipo" after Risso, Silva & Urbano 2002; French "ben", "bah", "du coup"
 *   after Dostie 2004, "Pragmaticalisation et marqueurs discursifs".
 *
 * A language without an entry keeps only the hesitation sounds shared across languages (hm,
 * mm): spellings like "um" or "em" are real words elsewhere (German "um" = around, Portuguese
 * "em" = in), so no language's list is applied to another.
 */
import { ORAL_READING_WPM, wordRateRatio } from '../../contract/speech-rate';
import { FAST_WPM, paceBandFor, SLOW_WPM } from './style';

/** A readability formula of the Flesch family: `a − b × words/sentence − c × syllables/word`. */
export interface FleschFormula {
  kind: 'flesch';
  /** Name and citation, reported with the score. */
  name: string;
  a: number;
  b: number;
  c: number;
}

/** Gulpease (Lucisano & Piemontese 1988): `89 + (300 × sentences − 10 × letters) / words`. */
export interface GulpeaseFormula {
  kind: 'gulpease';
  name: string;
}

export type ReadabilityFormula = FleschFormula | GulpeaseFormula;

export interface SpeechLanguage {
  /** Hesitation sounds of the language (normalised words), always fillers. */
  hesitation: RegExp;
  /** Discourse markers (normalised, space-separated words), fillers only when set off. */
  markers: readonly string[];
  /** The language's own reading-ease formula; English uses Flesch–Kincaid (readability.ts). */
  readability: ReadabilityFormula | null;
  /**
   * The rule-based part-of-speech tagger of the language (pos-compromise), named in the result's
   * warnings with its accuracy on a Universal Dependencies treebank (bench/speech/pos.ts); none:
   * only hesitations are tagged. English has its statistical tagger (pos.ts) and no warning.
   */
  posTagger?: { name: string; accuracy: string };
}

/** Hesitation sounds that are no word in any supported language: hm, hmm, mm, mmm. */
const SHARED_HESITATION = /^(?:h+m+|m{2,})$/;

/** Lexical languages' profiles, by ISO 639-1 code. */
export const SPEECH_LANGUAGES: Readonly<Record<string, SpeechLanguage>> = {
  en: {
    // um/umm/uhm, uh/uhh, er/err/erm, ehm, ah/ahh/ahm, hm/hmm, mm/mmm (tokens.ts documents it).
    hesitation: /^(?:u+h*m+|u+h+|e+r+m*|e+h+m+|a+h+m*|h+m+|m{2,})$/,
    markers: [],
    readability: null,
  },
  de: {
    hesitation: /^(?:ä+h*m*|ö+h*m*|e+h+m+|h+m+|m{2,})$/,
    markers: ['also', 'halt', 'quasi', 'sozusagen', 'na ja', 'naja', 'ne', 'gell'],
    // Amstad 1978, "Wie verständlich sind unsere Zeitungen?"
    readability: { kind: 'flesch', name: 'Flesch–Amstad (Amstad 1978)', a: 180, b: 1, c: 58.5 },
    posTagger: { name: 'de-compromise', accuracy: '83 % of words on UD German-GSD' },
  },
  es: {
    hesitation: /^(?:e+h+m*|e+m+|h+m+|m{2,})$/,
    markers: ['este', 'o sea', 'pues', 'bueno', 'vale', 'digamos', 'en plan', 'tipo'],
    // Fernández Huerta 1959, "Medidas sencillas de lecturabilidad", in the form corrected by
    // Law 2011 (the original's sentence term was misprinted): 206.84 − 1.02 × ASL − 60 × ASW.
    readability: {
      kind: 'flesch',
      name: 'Fernández Huerta (Fernández Huerta 1959, corrected by Law 2011)',
      a: 206.84,
      b: 1.02,
      c: 60,
    },
    posTagger: { name: 'es-compromise', accuracy: '85 % of words on UD Spanish-GSD' },
  },
  fr: {
    hesitation: /^(?:e+u+h+|h+e+u+|h+u+m+|h+m+|m{2,})$/,
    markers: ['ben', 'bah', 'bon', 'du coup', 'genre', 'quoi', 'enfin', 'voilà', 'en fait'],
    // Kandel & Moles 1958, "Application de l'indice de Flesch à la langue française".
    readability: { kind: 'flesch', name: 'Kandel–Moles (Kandel & Moles 1958)', a: 207, b: 1.015, c: 73.6 },
    posTagger: { name: 'fr-compromise', accuracy: '86 % of words on UD French-GSD' },
  },
  pt: {
    hesitation: /^(?:h+ã+|ã+h*|h+u+m+|é{2,}|e{2,}h*|h+m+|m{2,})$/,
    markers: ['né', 'tipo', 'então', 'assim', 'sabe', 'tá', 'pois'],
    // Martins et al. 1996, "Avaliação da inteligibilidade de textos" (Flesch adapted to Portuguese).
    readability: {
      kind: 'flesch',
      name: 'Flesch adapted to Portuguese (Martins et al. 1996)',
      a: 248.835,
      b: 1.015,
      c: 84.6,
    },
  },
  it: {
    hesitation: /^(?:e+h+m*|e+m+|h+m+|m{2,})$/,
    markers: ['cioè', 'tipo', 'allora', 'insomma', 'praticamente', 'diciamo', 'ecco', 'boh'],
    readability: { kind: 'gulpease', name: 'Gulpease (Lucisano & Piemontese 1988)' },
  },
  nl: {
    hesitation: /^(?:e+h+m*|u+h+m*|u+m+|h+m+|m{2,})$/,
    markers: ['nou', 'zeg maar', 'eigenlijk', 'gewoon', 'dus'],
    // Douma 1960, "De leesbaarheid van landbouwbladen" (Flesch adapted to Dutch).
    readability: { kind: 'flesch', name: 'Flesch–Douma (Douma 1960)', a: 206.835, b: 0.93, c: 77 },
  },
};

const UNKNOWN: SpeechLanguage = { hesitation: SHARED_HESITATION, markers: [], readability: null };

/** The profile of an ISO 639-1 code (English when absent); a language without one shares hm/mm only. */
export function speechLanguage(code: string | null | undefined): SpeechLanguage {
  return SPEECH_LANGUAGES[code ?? 'en'] ?? UNKNOWN;
}

/** True when the language has its own filler, marker and readability profile. */
export function isProfiledLanguage(code: string | null | undefined): boolean {
  return (code ?? 'en') in SPEECH_LANGUAGES;
}

/** True when `norm` is a hesitation sound in `language` (default English). */
export function isHesitationIn(norm: string, language?: string | null): boolean {
  return speechLanguage(language).hesitation.test(norm);
}

/**
 * True when `norm` is a hesitation sound in any profiled language: for the recogniser's loop
 * and invented-word guards, which must never treat "äh, äh, äh" as a loop to cut.
 */
export function isHesitationAnywhere(norm: string): boolean {
  return Object.values(SPEECH_LANGUAGES).some((l) => l.hesitation.test(norm));
}

/**
 * Languages written without spaces between words, whose Whisper words are its own pieces (a
 * character or a few: faster-whisper splits these six on unicode, every other language on spaces).
 */
const WRITTEN_WITHOUT_SPACES: ReadonlySet<string> = new Set(['zh', 'yue', 'ja', 'th', 'lo', 'my']);

/** True when `language` is written without spaces between words (Chinese, Japanese, Thai…). */
export function isWrittenWithoutSpaces(language: string | null | undefined): boolean {
  return WRITTEN_WITHOUT_SPACES.has(language ?? '');
}

/** Pure: what stands between two words of `language` as written: nothing in Chinese, Japanese… */
export function wordSeparator(language: string | null | undefined): string {
  return isWrittenWithoutSpaces(language) ? '' : ' ';
}

/** Pure: the words of a transcript in `language` as written (`wordSeparator`). */
export function joinWords(words: readonly string[], language: string | null | undefined): string {
  return words.join(wordSeparator(language));
}

/** Names of the profiled languages, for warnings a person reads. */
const NAMES: Readonly<Record<string, string>> = {
  en: 'English',
  de: 'German',
  es: 'Spanish',
  fr: 'French',
  pt: 'Portuguese',
  it: 'Italian',
  nl: 'Dutch',
};

/**
 * Pure: the result's warnings for speech in `language`: each section computed in a reduced way
 * for it, by its field name. None for English.
 * @example languageWarnings('de') // ['pos: …', 'sentiment_words: …', 'summary.speaking_style.readability_grade: …']
 */
export function languageWarnings(language: string | null | undefined): string[] {
  if (!language || language === 'en') return [];
  const name = NAMES[language] ? `${NAMES[language]} (${language})` : language;
  const profile = speechLanguage(language);
  const out = [
    profile.posTagger
      ? `pos: ${name} is tagged by ${profile.posTagger.name}, a rule-based tagger less accurate than the English one (${profile.posTagger.accuracy})`
      : `pos: no part-of-speech tagger for ${name}: only hesitations are listed (INTJ); NOUN, VERB, ADP, ADJ and ADV are empty`,
    `sentiment_words: no sentiment lexicon for ${name}: the list is empty and summary.emotion is judged from the voice alone`,
  ];
  if (isWrittenWithoutSpaces(language))
    out.push(
      `summary.words_per_minute: ${name} is written without spaces: its words are the recogniser's pieces (a character or a few), so the rate counts those, is not comparable with words per minute of other languages, and neither summary.speaking_style, summary.emotion nor delivery.pace.outside_band judges it; delivery.repetitions are not counted (a repeated character is often one word)`,
    );
  else out.push(paceBandWarning(language, name));
  if (!isProfiledLanguage(language))
    out.push(
      `filler_words: only the hesitation sounds shared by all languages (hm, mm) are counted in ${name}`,
      `summary.speaking_style.readability_grade: no readability formula for ${name}: 0`,
    );
  else if (profile.readability)
    out.push(
      `summary.speaking_style.readability_grade: the ${profile.readability.name} reading ease of the transcript, as a school grade`,
    );
  return out;
}

/** Pure: the warning on the pace band of speech in `language` (not English, written with spaces). */
function paceBandWarning(language: string, name: string): string {
  const judged =
    'by which delivery.pace.outside_band, summary.speaking_style and summary.emotion judge the rate';
  if (wordRateRatio(language) === null)
    return `delivery.pace.band_wpm: the pace band (${SLOW_WPM}–${FAST_WPM} words per minute) ${judged} is English's conversational norm, applied to ${name} as it is: no band of its own is measured, and a language of longer words says fewer of them per minute at the same pace`;
  const [slow, fast] = paceBandFor(language);
  return `delivery.pace.band_wpm: the pace band ${judged} is English's conversational ${SLOW_WPM}–${FAST_WPM} words per minute scaled to the words of ${name}: ${slow}–${fast}, as its speakers read the same texts aloud at ${ORAL_READING_WPM[language]} words a minute where English speakers read ${ORAL_READING_WPM.en} (the IReST reading-speed texts); a ratio of reading rates, not a norm measured on conversation`;
}
