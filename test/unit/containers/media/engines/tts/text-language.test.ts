import { describe, expect, it, vi } from 'vitest';
import {
  languageOfText,
  MIN_SCORE_LEAD,
  textLanguage,
} from '../../../../../../containers/media/engines/tts/text-language.js';

const SPANISH = 'Buenos días a todos. Hoy vamos a hablar del cambio climático y de lo que podemos hacer.';

describe('languageOfText', () => {
  it('should name another language when the detector clearly prefers it over English', () => {
    expect(languageOfText(SPANISH, { language: 'es', scores: { es: 0.83, pt: 0.71, en: 0.4 } })).toBe('es');
  });

  it('should keep English (null) for English, a short text or a slim lead', () => {
    expect(languageOfText(SPANISH, { language: 'en', scores: { en: 0.8 } })).toBeNull();
    expect(languageOfText(SPANISH, { language: '', scores: {} })).toBeNull();
    expect(languageOfText('Thank you for listening.', { language: 'nl', scores: { nl: 0.9 } })).toBeNull();
    const slim = { language: 'es', scores: { es: 0.8, en: 0.8 - MIN_SCORE_LEAD / 2 } };
    expect(languageOfText(SPANISH, slim)).toBeNull();
  });

  it('should name a language of another script whatever its length (it cannot be English)', () => {
    expect(languageOfText('Привет всем', { language: 'ru', scores: { ru: 0.85, en: 0.84 } })).toBe('ru');
    expect(languageOfText('今日は天気がいいですね。', { language: 'ja', scores: { ja: 0.86 } })).toBe('ja');
  });
});

describe('textLanguage (ELD)', () => {
  it('should find the language of a sentence and leave English short texts English', async () => {
    expect(await textLanguage(SPANISH)).toBe('es');
    expect(await textLanguage('Guten Morgen zusammen, heute sprechen wir über das Wetter.')).toBe('de');
    expect(await textLanguage('Bonjour à tous, nous allons parler du climat aujourd’hui.')).toBe('fr');
    expect(await textLanguage('Сегодня мы поговорим о погоде.')).toBe('ru');
    for (const english of [
      'Welcome to our product demo.',
      'Thank you for listening.',
      'Our Q3 revenue grew 12%.',
      'Hello everyone, today we are going to talk about the weather and what it means for our city.',
      'Hola',
    ])
      expect(await textLanguage(english)).toBeNull();
  });
});

describe('textLanguage without its detector', () => {
  it('should leave the text to the English voice, and say so in the log', async () => {
    vi.resetModules();
    vi.doMock('eld/extrasmall', () => {
      throw new Error('broken install');
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const { textLanguage: fresh } =
        await import('../../../../../../containers/media/engines/tts/text-language.js');
      expect(await fresh(SPANISH)).toBeNull();
      expect(warn.mock.calls.join(' ')).toContain('tts_text_language_unavailable');
    } finally {
      warn.mockRestore();
      vi.doUnmock('eld/extrasmall');
      vi.resetModules();
    }
  });
});
