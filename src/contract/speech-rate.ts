/**
 * @module contract/speech-rate
 * A words-per-minute band in another language. A language of longer words says fewer of them
 * a minute at the same pace: German speakers read the same texts aloud at 179 words a minute
 * where English speakers read 228. English's bands (the analysis's 110–170 WPM, the CLI's and the
 * page's 130–160 target) are scaled by that ratio for each language whose oral reading rate was
 * measured on the same texts; any other language keeps English's band, and the result's warnings
 * say which was applied. Shared by the analysis, the CLI and the page, so all three judge one
 * rate by the same band.
 *
 * Source: the International Reading Speed Texts (IReST), ten texts matched in content, length and
 * difficulty across languages, read aloud by 25 native speakers aged 18–35 per language
 * (Trauzettel-Klosinski & Dietz 2012, Invest. Ophthalmol. Vis. Sci. 53(9):5452–5461, their table of
 * mean words per minute); Greek from the same texts translated (Gleni et al. 2019, Optom. Vis.
 * Sci., doi:10.1097/OPX.0000000000001434); Brazilian Portuguese as Macedo & Silva (2013,
 * Universidade do Minho) report the IReST's Brazilian readers. Chinese and Japanese were measured
 * too but are left out: their transcripts hold the recogniser's pieces, not words, and no
 * words-per-minute band judges them.
 */

/** Mean oral reading rate of the IReST texts, words per minute, by ISO 639-1 code. */
export const ORAL_READING_WPM: Readonly<Record<string, number>> = {
  en: 228,
  ar: 138,
  de: 179,
  el: 208,
  es: 218,
  fi: 161,
  fr: 195,
  he: 187,
  it: 188,
  nl: 202,
  pl: 166,
  pt: 180,
};

/**
 * Pure: how many words `language` says a minute for each word English says at the same pace,
 * or null when its rate was not measured (English's band then applies as it is).
 * @example wordRateRatio('de') // 0.785…; wordRateRatio('en') // 1; wordRateRatio('sv') // null
 */
export function wordRateRatio(language: string | null | undefined): number | null {
  const rate = ORAL_READING_WPM[language ?? 'en'];
  return rate === undefined ? null : rate / ORAL_READING_WPM.en;
}

/**
 * Pure: an English words-per-minute band in `language` (each end scaled by `wordRateRatio`,
 * rounded to a whole word); English's band unchanged when the language's rate is unknown.
 * @example bandInLanguage([110, 170], 'de') // [86, 133]; bandInLanguage([110, 170], 'sv') // [110, 170]
 */
export function bandInLanguage(
  englishBand: readonly [number, number],
  language: string | null | undefined,
): [number, number] {
  const ratio = wordRateRatio(language) ?? 1;
  return [Math.round(englishBand[0] * ratio), Math.round(englishBand[1] * ratio)];
}
