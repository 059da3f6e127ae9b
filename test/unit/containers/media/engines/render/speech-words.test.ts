import { describe, expect, it } from 'vitest';
import type { AsrOutput } from '../../../../../../src/contract/media.js';
import type { Prepared } from '../../../../../../containers/media/engines/render/prepare.js';
import { RenderLog } from '../../../../../../containers/media/engines/render/render-log.js';
import { timeNewSpeech } from '../../../../../../containers/media/engines/render/speech-words.js';
import type { RenderEngines, RenderInput } from '../../../../../../containers/media/engines/render/types.js';
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

/**
 * Which words the caption files get, with the engines injected as the render's interface takes
 * them (the real aligner and Whisper run in test/worker/captions.test.ts).
 */
describe('timeNewSpeech', () => {
  const SCRIPT = 'Hello there.';
  const aligned = [
    { word: 'Hello', start: 0.1, end: 0.4 },
    { word: 'there.', start: 0.45, end: 0.8 },
  ];
  const heard = (language: string): AsrOutput => ({
    engine: 'faster-whisper',
    language,
    words: [{ word: 'Hallo', start: 0.12, end: 0.5, confidence: 0.9 }],
  });
  const prepared = (
    engine: string | null,
    durationSec = 2,
    voiceId = engine === 'piper' ? 'en_US-joe-medium' : 'v1',
  ) =>
    ({
      source: {},
      speech: {
        path: '/tmp/s.wav',
        durationSec,
        provenance: engine ? { engine, voice_id: voiceId, notes: [] } : null,
      },
      plan: { durationSec },
    }) as unknown as Prepared;
  const input = (captions: string | undefined, speech_words = true) =>
    ({ options: { captions, speech_words }, workDir: '/tmp' }) as unknown as RenderInput;
  /** Engines that record what they were asked. */
  const engines = (language: string) => {
    const asked: Array<{ maxSec: number; language?: string }> = [];
    const e: RenderEngines = {
      align: async () => aligned,
      transcribe: async (_path, maxSec, lang) => {
        asked.push({ maxSec, language: lang });
        return heard(language);
      },
    };
    return { e, asked };
  };

  it('should give speech an English voice read from a script the aligned words of that script', async () => {
    const { e, asked } = engines('en');
    const speech = await timeNewSpeech(input(SCRIPT), prepared('piper'), e, new RenderLog()).speech;
    expect(speech).toEqual({
      timing: 'alignment',
      language: 'en',
      words: aligned.map((w) => ({ ...w, confidence: 1 })),
    });
    expect(asked).toEqual([]);
  });

  it('should transcribe supplied speech in the language the recogniser detects', async () => {
    const { e, asked } = engines('de');
    const speech = await timeNewSpeech(input(undefined), prepared(null), e, new RenderLog()).speech;
    expect(speech).toEqual({ timing: 'transcription', language: 'de', words: heard('de').words });
    expect(asked).toEqual([{ maxSec: 2, language: undefined }]);
  });

  it('should align the script of a voice of unknown language only when it was heard speaking English', async () => {
    const english = engines('en');
    const en = await timeNewSpeech(input(SCRIPT), prepared('elevenlabs'), english.e, new RenderLog()).speech;
    expect(en?.timing).toBe('alignment');
    const german = engines('de');
    const de = await timeNewSpeech(input(SCRIPT), prepared('elevenlabs'), german.e, new RenderLog()).speech;
    expect(de).toMatchObject({ timing: 'transcription', language: 'de' });
    // Its words are the script's, at the time heard: 'Hallo' (0.12–0.5 s) for 'Hello', which shares
    // that span with 'there.' (left out).
    expect(de?.words).toEqual([
      { word: 'Hello', start: 0.12, end: 0.31, confidence: 0.9 },
      { word: 'there.', start: 0.31, end: 0.5, confidence: 0 },
    ]);
  });

  it("should give speech of another language's voice its script's words at the times heard", async () => {
    const at = (word: string, start: number, end: number) => ({ word, start, end, confidence: 0.8 });
    const spanish: RenderEngines = {
      transcribe: async () => ({
        engine: 'faster-whisper',
        language: 'es',
        words: [at('Ola', 0.1, 0.4), at('a', 0.45, 0.55), at('todos.', 0.6, 0.9)],
      }),
    };
    const speech = await timeNewSpeech(
      input('Hola a todos.'),
      prepared('espeak-ng', 2, 'es+m3'),
      spanish,
      new RenderLog(),
    ).speech;
    expect(speech).toEqual({
      timing: 'transcription',
      language: 'es',
      words: [at('Hola', 0.1, 0.4), at('a', 0.45, 0.55), at('todos.', 0.6, 0.9)],
    });
  });

  it('should transcribe a speech longer than the aligner hears, and time nothing unasked', async () => {
    const { e, asked } = engines('en');
    const long = await timeNewSpeech(input(SCRIPT), prepared('piper', 900), e, new RenderLog()).speech;
    expect(long?.timing).toBe('transcription');
    expect(asked).toEqual([{ maxSec: 900, language: 'en' }]);
    expect(
      await timeNewSpeech(input(SCRIPT, false), prepared('piper'), e, new RenderLog()).speech,
    ).toBeNull();
  });

  it('should leave out the caption files, with a note, when the recogniser fails', async () => {
    const log = new RenderLog();
    const failing: RenderEngines = {
      transcribe: async () => {
        throw new Error('worker died');
      },
    };
    expect(await timeNewSpeech(input(undefined), prepared(null), failing, log).speech).toBeNull();
    expect(log.notes.join('\n')).toMatch(/could not be transcribed \(worker died\)/);
  });
});
