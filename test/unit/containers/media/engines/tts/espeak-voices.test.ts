import { describe, expect, it } from 'vitest';
import {
  espeakVoiceOf,
  languageName,
  unspeakableBecause,
} from '../../../../../../containers/media/engines/tts/espeak-voices.js';

describe('espeakVoiceOf', () => {
  it("should name the language's voice with the fallback's variant, under espeak-ng's own name", () => {
    expect(espeakVoiceOf('es')).toBe('es+m3');
    expect(espeakVoiceOf('zh')).toBe('cmn+m3');
    expect(espeakVoiceOf('no')).toBe('nb+m3');
    expect(espeakVoiceOf('tl')).toBeNull();
  });
});

describe('unspeakableBecause', () => {
  it('should refuse Japanese with kanji, and Chinese, which their voices cannot say', () => {
    expect(unspeakableBecause('ja', '今日は')).toContain('reads kana, not kanji');
    expect(unspeakableBecause('ja', 'きょうは')).toBeNull();
    expect(unspeakableBecause('zh', '今天')).toContain('tone as an English number');
    expect(unspeakableBecause('es', 'hoy')).toBeNull();
  });
});

describe('languageName', () => {
  it('should give the English name with the code, or the code alone', () => {
    expect(languageName('es')).toBe('Spanish (es)');
    expect(languageName('xx')).toBe('xx');
  });
});
