import { describe, expect, it } from 'vitest';
import { bandInLanguage, ORAL_READING_WPM, wordRateRatio } from '../../../../src/contract/speech-rate';

describe('a words-per-minute band in another language', () => {
  it("should scale English's band by the language's oral reading rate over English's", () => {
    expect(wordRateRatio('en')).toBe(1);
    expect(wordRateRatio(null)).toBe(1);
    expect(wordRateRatio('de')).toBeCloseTo(179 / 228, 6);
    expect(bandInLanguage([110, 170], 'de')).toEqual([86, 133]);
    expect(bandInLanguage([110, 170], 'es')).toEqual([105, 163]);
    expect(bandInLanguage([130, 160], 'fr')).toEqual([111, 137]);
    expect(bandInLanguage([110, 170], 'en')).toEqual([110, 170]);
  });

  it("should keep English's band where the language's rate was not measured", () => {
    expect(wordRateRatio('sv')).toBeNull();
    expect(bandInLanguage([110, 170], 'sv')).toEqual([110, 170]);
    // Chinese and Japanese are written without spaces: their words are pieces, no band is scaled.
    expect(ORAL_READING_WPM.zh).toBeUndefined();
    expect(ORAL_READING_WPM.ja).toBeUndefined();
  });

  it('should hold a rate for every language whose speech has a profile of its own', () => {
    for (const language of ['de', 'es', 'fr', 'it', 'nl', 'pt'])
      expect(ORAL_READING_WPM[language]).toBeGreaterThan(100);
  });
});
