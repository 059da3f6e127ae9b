import { describe, expect, it } from 'vitest';
import {
  detectionWarnings,
  detectionWindows,
  type LanguageDetection,
} from '../../../../../../containers/media/engines/asr/language';
import { promptFor } from '../../../../../../containers/media/engines/asr/prompts';

const detection = (over: Partial<LanguageDetection>): LanguageDetection => ({
  language: 'de',
  language_probability: 0.97,
  speech_sec: 40,
  candidates: [
    ['de', 0.97],
    ['nl', 0.02],
  ],
  windows: [{ language: 'de', probability: 0.97, speech_sec: 30 }],
  ...over,
});

describe('language detection rules', () => {
  it('should read one window per minute of speech, one to three', () => {
    expect(detectionWindows([])).toBe(1);
    expect(detectionWindows([{ start: 0, end: 50 }])).toBe(1);
    expect(
      detectionWindows([
        { start: 0, end: 50 },
        { start: 60, end: 100 },
      ]),
    ).toBe(2);
    expect(detectionWindows([{ start: 0, end: 3600 }])).toBe(3);
  });

  it('should warn when unsure or when a window hears another language, and not otherwise', () => {
    expect(detectionWarnings(detection({}))).toEqual([]);
    const unsure = detectionWarnings(
      detection({
        language_probability: 0.41,
        candidates: [
          ['de', 0.41],
          ['nl', 0.3],
        ],
        speech_sec: 1.8,
      }),
    );
    expect(unsure).toHaveLength(1);
    expect(unsure[0]).toMatch(/uncertain: transcribed as de \(41 %.*1\.8 s.*nl 30 %.*language=/);
    const mixed = detectionWarnings(
      detection({
        windows: [
          { language: 'de', probability: 0.9, speech_sec: 30 },
          { language: 'en', probability: 0.95, speech_sec: 30 },
        ],
      }),
    );
    expect(mixed[0]).toMatch(/another language \(en 95 %\)/);
  });

  it("should prompt in the language spoken, English's own setting for English", () => {
    expect(promptFor('de')).toMatch(/Ähm/);
    expect(promptFor('en', 'custom')).toBe('custom');
    expect(promptFor('ja')).toBe('');
  });
});
