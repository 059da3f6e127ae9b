import { describe, expect, it } from 'vitest';
import {
  ENGLISH_MAX_TOKENS_PER_SEC,
  maxTokensPerSecond,
  TOKEN_DENSITY,
  tokenDensity,
} from '../../../../../../containers/media/engines/asr/token-density';

describe('token density per language', () => {
  it("should keep English's bound and give denser scripts more tokens per second", () => {
    expect(maxTokensPerSecond('en')).toBe(ENGLISH_MAX_TOKENS_PER_SEC);
    // Hindi spends five English tokens on the same words; its bound must let its speech through.
    expect(maxTokensPerSecond('hi')).toBeGreaterThanOrEqual(5 * ENGLISH_MAX_TOKENS_PER_SEC);
    expect(tokenDensity('ka')).toBeGreaterThan(tokenDensity('el'));
    expect(tokenDensity('el')).toBeGreaterThan(tokenDensity('de'));
  });

  it('should bound an unmeasured language by the densest measured language of its script', () => {
    expect(tokenDensity('mr')).toBe(TOKEN_DENSITY.hi); // Marathi: Devanagari
    expect(tokenDensity('kk')).toBe(Math.max(TOKEN_DENSITY.ru, TOKEN_DENSITY.uk)); // Kazakh: Cyrillic
    expect(tokenDensity('sv')).toBe(TOKEN_DENSITY.yo); // Swedish: Latin, whose densest measured is Yoruba
  });

  it('should bound a language of an unmeasured script, or an unknown code, by the densest of all', () => {
    const densest = Math.max(...Object.values(TOKEN_DENSITY));
    expect(tokenDensity('my')).toBe(densest); // Burmese
    expect(tokenDensity('bo')).toBe(densest); // Tibetan
    expect(tokenDensity('xx')).toBe(densest);
    expect(tokenDensity('not a tag')).toBe(densest);
  });
});
