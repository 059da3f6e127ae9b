import { describe, expect, it } from 'vitest';
import {
  onOutputTimeline,
  voiceLanguage,
} from '../../../../../../containers/media/engines/render/speech-words.js';

describe('voiceLanguage', () => {
  it('should read the language of the voices whose ids name it', () => {
    expect(voiceLanguage({ engine: 'piper', voice_id: 'en_US-joe-medium' })).toBe('en');
    expect(voiceLanguage({ engine: 'espeak-ng', voice_id: 'en-gb+f3' })).toBe('en');
    expect(voiceLanguage({ engine: 'espeak-ng', voice_id: 'de' })).toBe('de');
  });

  it('should not guess a language from an opaque id or an unknown code', () => {
    expect(voiceLanguage({ engine: 'elevenlabs', voice_id: 'en' })).toBeNull();
    expect(voiceLanguage({ engine: 'espeak-ng', voice_id: 'xx-yy' })).toBeNull();
    expect(voiceLanguage(null)).toBeNull();
  });
});

describe('onOutputTimeline', () => {
  const w = (word: string, start: number, end: number) => ({ word, start, end, confidence: 1 });

  it('should drop the words after the output ends and end the one it cuts', () => {
    const words = [w('a', 0.1, 0.4), w('b', 1.8, 2.3), w('c', 2.5, 2.9)];
    expect(onOutputTimeline(words, 2)).toEqual([w('a', 0.1, 0.4), w('b', 1.8, 2)]);
  });

  it('should keep words inside the output as they are', () => {
    const words = [w('a', 0, 0.5), w('b', 0.6, 1)];
    expect(onOutputTimeline(words, 1)).toEqual(words);
    expect(onOutputTimeline(words, 0)).toEqual([]);
  });
});
