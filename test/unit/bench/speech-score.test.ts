/**
 * The per-language speech bench's scoring (bench/speech/score.ts): the WER normalisation in
 * every language, the hesitation sets, and filler matching by time and by order.
 */
import { describe, expect, it } from 'vitest';
import {
  fillerRates,
  inventedHesitations,
  isHesitationIn,
  languageWer,
  languageWords,
  matchFillersByOrder,
  matchFillers,
} from '../../../bench/speech/score.js';
import { joinClips, parseManifest, parseTimes } from '../../../bench/speech/sets.js';

describe('languageWords', () => {
  it('should keep accents and apostrophes, strip punctuation and spell whole numbers in the language', () => {
    expect(languageWords('Qu’il a dit : « Bonjour », en 1989 !', 'fr')).toEqual([
      "qu'il",
      'a',
      'dit',
      'bonjour',
      'en',
      'mille',
      'neuf',
      'cent',
      'quatre-vingt-neuf',
    ]);
    // A recogniser's digits and a reference's words are the same words said.
    expect(languageWer('nestor pestana duzentos e sessenta e seis', 'Nestor Pestana 266.', 'pt').edits).toBe(
      0,
    );
    expect(languageWords('Meine Lieblingszahl ist 268', 'de').at(-1)).toBe('zweihundertachtundsechzig');
    // Decimals, times and codes are left as written; so is a language without a speller.
    expect(languageWords('20.26 um 9am, 1234567890', 'de')).toEqual(['20', '26', 'um', '9am', '1234567890']);
    expect(languageWords('1989', 'ja')).toEqual(['1989']);
    expect(languageWords('Über-Laufventil, Straße.', 'de')).toEqual(['über-laufventil', 'straße']);
  });

  it('should compare composed and decomposed accents as the same word', () => {
    expect(languageWords('Cafe\u0301', 'fr')).toEqual(languageWords('Café', 'fr'));
  });

  it("should drop the language's hesitation sounds but never a word of the language", () => {
    expect(languageWords('et euh donc', 'fr')).toEqual(['et', 'donc']);
    expect(languageWords('er sagt äh ja', 'de')).toEqual(['er', 'sagt', 'ja']); // "er" is German for "he"
    expect(languageWords('moro em Lisboa', 'pt')).toEqual(['moro', 'em', 'lisboa']); // "em" is Portuguese for "in"
    expect(languageWords('darf ich um eine Bestätigung bitten', 'de')).toContain('um'); // German "um"
    expect(languageWords('uma raposa e um lobo', 'pt')).toContain('um'); // Portuguese "um"
    expect(languageWords('I er think um so', 'en')).toEqual(['i', 'think', 'so']);
  });
});

describe('languageWer', () => {
  it('should count edits against the spoken words', () => {
    expect(languageWer('la nuit était si belle', 'la nuit était belle', 'fr')).toEqual({
      edits: 1,
      refWords: 5,
      wer: 0.2,
    });
    expect(languageWer('Hola, ¿qué tal?', 'hola qué tal', 'es').wer).toBe(0);
  });

  it('should count a translation as errors', () => {
    expect(languageWer('la nuit était si belle', 'the night was so beautiful', 'fr').wer).toBe(1);
  });
});

describe('isHesitationIn', () => {
  it('should know each language’s sounds', () => {
    expect(isHesitationIn('Ähm,', 'de')).toBe(true);
    expect(isHesitationIn('euh', 'fr')).toBe(true);
    expect(isHesitationIn('hmm', 'it')).toBe(true);
    expect(isHesitationIn('este', 'es')).toBe(false);
    expect(isHesitationIn('Uh,', 'fr')).toBe(true); // an English sound in a French transcript is still a hesitation
  });
});

describe('matchFillers', () => {
  it('should pair starts within 150 ms one-to-one, nearest first', () => {
    expect(
      matchFillers([{ start: 1 }, { start: 2 }], [{ start: 1.1 }, { start: 1.05 }, { start: 2.2 }]),
    ).toEqual({ tp: 1, fp: 2, fn: 1, startErrors: [expect.closeTo(0.05, 9)] });
  });
});

describe('matchFillersByOrder', () => {
  it('should count a hesitation found between the same words', () => {
    expect(matchFillersByOrder('alors euh elle a dit euh non', 'alors euh elle a dit non', 'fr')).toEqual({
      tp: 1,
      fp: 0,
      fn: 1,
    });
  });

  it('should count a hesitation in another place as missed and invented', () => {
    expect(matchFillersByOrder('a b euh c d e f', 'a b c d e euh f', 'fr')).toEqual({ tp: 0, fp: 1, fn: 1 });
  });
});

describe('inventedHesitations and fillerRates', () => {
  it('should count every recognised hesitation on a fluent clip', () => {
    expect(inventedHesitations(['For', 'the', 'best', 'um', 'views', 'hmm'], 'es')).toBe(2);
    expect(inventedHesitations(['darf', 'ich', 'um', 'eine'], 'de')).toBe(0); // German "um" is a word
    expect(fillerRates({ tp: 8, fp: 2, fn: 13 })).toEqual({ recall: 8 / 21, precision: 0.8 });
  });
});

describe('parseManifest and parseTimes', () => {
  it('should read a MANIFEST.tsv by its header and the filler times', () => {
    const rows = parseManifest('file\tlanguage\thesitation_times\r\nfr/a.flac\tfr\t1.20;3.45\n');
    expect(rows).toEqual([{ file: 'fr/a.flac', language: 'fr', hesitation_times: '1.20;3.45' }]);
    expect(parseTimes(rows[0].hesitation_times)).toEqual([1.2, 3.45]);
    expect(parseTimes('')).toBeUndefined();
    expect(parseTimes('1.2;x')).toBeUndefined();
  });
});

describe('joinClips', () => {
  it('should put the clips one after another with the gap of silence after each', () => {
    const a = { pcm: Int16Array.from([1, 2]) };
    const b = { pcm: Int16Array.from([3]) };
    // 16 kHz: a gap of 1/8000 s is two samples.
    expect([...joinClips([a, b], 1 / 8000)]).toEqual([1, 2, 0, 0, 3, 0, 0]);
    expect(joinClips([], 0.7).length).toBe(0);
  });
});
