/**
 * @module bench/tts/score
 * How a round-trip transcript is compared with the text it came from (pure): the recogniser's
 * ways of writing what it heard (clock times "7.15", years "20.26", "Krakow") are brought to the
 * reference's before both are normalised as spoken, so a spelling is not counted as a word error.
 */
/**
 * Pure: Whisper writes clock times as "7.15" / "10.30am"; where the reference has that time
 * ("7:15"), the transcript's spelling is made the same, so a format is not counted as an error.
 */
export function sameTimeFormat(reference: string, hypothesis: string): string {
  let out = hypothesis;
  for (const [, h, m] of reference.matchAll(/\b(\d{1,2}):(\d{2})\b/g))
    out = out.replace(new RegExp(`\\b${h}\\.${m}(?=\\s?[ap]\\.?m\\b|\\b)`, 'g'), `${h}:${m} `);
  return out.replace(/(\d:\d{2}) ([ap])\.?m\b\.?/gi, '$1 $2m');
}

/**
 * Pure: Whisper writes a year said as two pairs ("twenty twenty-six") as "20.26", as it does clock
 * times; where the reference has that year, the transcript's spelling is made the same. Both
 * voices get it at every beam: the words were heard, only written as a decimal.
 */
export function sameYearFormat(reference: string, hypothesis: string): string {
  let out = hypothesis;
  for (const [year, hi, lo] of reference.matchAll(/\b(1[1-9]|20)(\d{2})\b/g))
    out = out.replace(new RegExp(`\\b${hi}\\.${lo}\\b`, 'g'), year);
  return out;
}

/** The transcript with the reference's way of writing times and years. */
export const sameFormat = (reference: string, hypothesis: string) =>
  sameYearFormat(reference, sameTimeFormat(reference, hypothesis));

/** "Kraków" and "Krakow" are the same word to a listener (wer.ts would split "krak w"). */
export const plainLetters = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
