import { describe, expect, it } from 'vitest';
import {
  decodeScore,
  detectionWarnings,
  detectionWindows,
  encodedWhileDetecting,
  mainLanguage,
  MIN_STRETCH_SEC,
  otherLanguageStretches,
  OWN_DETECTION_WINDOW_MIN_SEC,
  ownDetectionWindow,
  speechBesides,
  pickDecode,
  probabilityOf,
  trialLanguages,
  type LanguageDetection,
} from '../../../../../../containers/media/engines/asr/language';
import { promptFor } from '../../../../../../containers/media/engines/asr/prompts';
import type { TimeSegment } from '../../../../../../src/contract/media';

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
  it('should report the probability of the language the words are in, also when a trial overruled the detection', () => {
    // The Spanish clip of the speech sets: detected el 19 %, hi 15 %, es 13 %; the Spanish decode was kept.
    const unsure = detection({
      language: 'el',
      language_probability: 0.19,
      candidates: [
        ['el', 0.19],
        ['hi', 0.15],
        ['es', 0.13],
      ],
    });
    expect(probabilityOf(unsure, 'el')).toBe(0.19);
    expect(probabilityOf(unsure, 'es')).toBe(0.13);
    expect(probabilityOf(unsure, 'fr')).toBeNull();
    expect(
      probabilityOf(detection({ language: null, language_probability: null, candidates: [] }), 'en'),
    ).toBeNull();
  });

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

  it('should read the utterance with the most speech alone when it has enough or is the only one', () => {
    const first = { start: 0.4, end: 27.9 };
    const next = { start: 29.5, end: 40 };
    /** Seconds of speech per utterance, 0 for any other. */
    const speech =
      (...given: Array<[TimeSegment, number]>) =>
      (u: TimeSegment) =>
        new Map(given).get(u) ?? 0;
    const min = OWN_DETECTION_WINDOW_MIN_SEC;
    expect(ownDetectionWindow([first, next], speech([first, min]))).toEqual(first);
    // Less speech everywhere (pauses inside, short sentences): read together.
    expect(ownDetectionWindow([first, next], speech([first, min - 0.1]))).toBeUndefined();
    // A short opening sentence: the long utterance after it is read alone.
    expect(ownDetectionWindow([next, first], speech([next, 6], [first, 24]))).toEqual(first);
    // Two long ones: the one with more speech; equals, the first.
    expect(ownDetectionWindow([first, next], speech([first, 21], [next, 23]))).toEqual(next);
    expect(ownDetectionWindow([first, next], speech([first, 22], [next, 22]))).toEqual(first);
    // Alone, it is all the window would hold anyway.
    expect(ownDetectionWindow([next], () => 5)).toEqual(next);
    expect(ownDetectionWindow([], () => 0)).toBeUndefined();
  });

  it('should read together the speech besides the utterance read alone, however it was padded', () => {
    const heard = [
      { start: 1.5, end: 8.6 },
      { start: 11.1, end: 35 },
      { start: 35.2, end: 60 },
    ];
    const own = { start: 10.8, end: 35 };
    expect(speechBesides(heard, own)).toEqual([heard[0], heard[2]]);
    expect(speechBesides(heard, undefined)).toEqual(heard);
  });

  it('should encode ahead, on each other slot, the next utterance the detection does not read', () => {
    const [a, b, c] = [0, 30, 60].map((start) => ({ start, end: start + 27 }));
    expect(encodedWhileDetecting([a, b, c], a, 2)).toEqual([b]);
    expect(encodedWhileDetecting([a, b, c], undefined, 2)).toEqual([a]);
    expect(encodedWhileDetecting([a, b, c], a, 3)).toEqual([b, c]);
    expect(encodedWhileDetecting([a, b, c], a, 1)).toEqual([]);
    expect(encodedWhileDetecting([a], a, 2)).toEqual([]);
  });

  it('should warn when unsure or when a window hears another language, and not otherwise', () => {
    expect(detectionWarnings(detection({}), 'de')).toEqual([]);
    const unsure = detection({
      language: 'fi',
      language_probability: 0.41,
      candidates: [
        ['fi', 0.41],
        ['en', 0.26],
      ],
      speech_sec: 3.1,
    });
    expect(detectionWarnings(unsure, 'fi')[0]).toMatch(
      /uncertain \(fi 41 %, en 26 % over 3\.1 s of speech\): transcribed as fi; pass language=/,
    );
    expect(detectionWarnings(unsure, 'en', ['fi', 'en'])[0]).toMatch(
      /decoded as fi and en, kept en, the decode Whisper found likelier/,
    );
    const mixed = detectionWarnings(
      detection({
        windows: [
          { language: 'de', probability: 0.9, speech_sec: 30 },
          { language: 'en', probability: 0.95, speech_sec: 30 },
        ],
      }),
      'de',
    );
    expect(mixed[0]).toMatch(/another language \(en 95 %\)/);
  });

  it('should find long stretches Whisper is sure are in another language, and only those', () => {
    const heard = (language: string, p: number): Array<[string, number]> => [
      [language, p],
      ['nl', 0.01],
    ];
    // German, then 16 s of English in two utterances, a short English quote, a French stretch heard unsure.
    const planned = [
      { start: 0, end: 9 },
      { start: 10, end: 20 },
      { start: 21, end: 27 },
      { start: 28, end: 30 },
      { start: 31, end: 33 },
      { start: 34, end: 36 },
      { start: 37, end: 60 },
    ];
    const stretches = otherLanguageStretches(
      {
        planned,
        heard: [
          heard('de', 0.98),
          heard('en', 0.97),
          heard('en', 0.93),
          heard('de', 0.99),
          heard('en', 0.99),
          heard('de', 0.95),
          heard('fr', 0.6),
        ],
      },
      'de',
    );
    expect(stretches).toEqual([
      { language: 'en', probability: 0.93, start: 10, end: 27, utterances: [1, 2] },
    ]);
    // Shorter than MIN_STRETCH_SEC, or no language heard: none.
    const short = {
      planned: [planned[0], { start: 10, end: 10 + MIN_STRETCH_SEC - 0.5 }],
      heard: [heard('de', 0.98), heard('en', 0.99)],
    };
    expect(otherLanguageStretches(short, 'de')).toEqual([]);
    // The whole file heard in another language is the detection's call, not a stretch.
    const whole = { planned: [{ start: 0, end: 30 }], heard: [heard('en', 0.99)] };
    expect(otherLanguageStretches(whole, 'de')).toEqual([]);
    expect(otherLanguageStretches({ planned: [{ start: 0, end: 30 }], heard: [undefined] }, 'de')).toEqual(
      [],
    );
    // Two languages back to back are two stretches.
    const two = otherLanguageStretches(
      { planned: [planned[1], { start: 21, end: 35 }], heard: [heard('en', 0.97), heard('fr', 0.97)] },
      'de',
    );
    expect(two.map((s) => s.language)).toEqual(['en', 'fr']);
  });

  it('should name each stretch transcribed in its own language, and then not claim all was one', () => {
    const d = detection({
      windows: [
        { language: 'de', probability: 0.9, speech_sec: 30 },
        { language: 'en', probability: 0.95, speech_sec: 30 },
      ],
    });
    const stretch = { language: 'en', probability: 0.995, start: 33.77, end: 49.54, utterances: [2] };
    expect(detectionWarnings(d, 'de', ['de'], [stretch], 'en')).toEqual([
      "the speech from 33.8 s to 49.5 s is in en (each utterance 99 % or more), the rest in de: each part transcribed in its own language; the analytics read all of it by en's rules",
    ]);
  });

  it('should give the result the language most of the speech is in once stretches are switched', () => {
    const planned = [
      { start: 0, end: 10 },
      { start: 11, end: 26 },
      { start: 27, end: 31 },
    ];
    // 15 s of English against 14 s of German; a tie keeps the file's language.
    const en = { language: 'en', probability: 0.97, start: 11, end: 26, utterances: [1] };
    expect(mainLanguage(planned, [en], 'de')).toBe('en');
    expect(mainLanguage(planned.slice(0, 2).concat({ start: 27, end: 32 }), [en], 'de')).toBe('de');
    expect(mainLanguage(planned, [{ ...en, end: 20, utterances: [2] }], 'de')).toBe('de');
    expect(mainLanguage(planned, [], 'de')).toBe('de');
    // Its probability: the lowest its stretches were heard at (the detection may not list it).
    expect(probabilityOf(detection({}), 'en', [en, { ...en, probability: 0.93 }])).toBe(0.93);
    expect(probabilityOf(detection({}), 'de', [en])).toBe(0.97);
  });

  it('should decode in the other likely languages too only when unsure on a short file', () => {
    const sure = detection({});
    expect(trialLanguages(sure, 10)).toEqual(['de']);
    const unsure = detection({
      language_probability: 0.41,
      candidates: [
        ['fi', 0.41],
        ['en', 0.26],
        ['nn', 0.18],
      ],
    });
    expect(trialLanguages(unsure, 10)).toEqual(['fi', 'en', 'nn']);
    expect(trialLanguages(unsure, 600)).toEqual(['fi']);
    // At most three, each at least 0.1: the spoken language among them whichever CPU ordered them.
    const spread = detection({
      language: 'fi',
      language_probability: 0.3,
      candidates: [
        ['fi', 0.3],
        ['nn', 0.25],
        ['en', 0.2],
        ['no', 0.15],
        ['da', 0.05],
      ],
    });
    expect(trialLanguages(spread, 10)).toEqual(['fi', 'nn', 'en']);
    expect(detectionWarnings(spread, 'en', ['fi', 'nn', 'en'])[0]).toMatch(
      /decoded as fi, nn and en, kept en/,
    );
    // Sure enough not to warn, not sure enough to skip the check on a short file.
    const accented = detection({
      language: 'es',
      language_probability: 0.62,
      candidates: [
        ['es', 0.62],
        ['en', 0.31],
      ],
      windows: [{ language: 'es', probability: 0.62, speech_sec: 20 }],
    });
    expect(trialLanguages(accented, 20)).toEqual(['es', 'en']);
    expect(detectionWarnings(accented, 'es', ['es', 'en'])).toEqual([]);
    expect(detectionWarnings(accented, 'en', ['es', 'en'])[0]).toMatch(
      /uncertain \(es 62 %, en 31 %.*kept en/,
    );
    expect(
      trialLanguages(
        detection({
          language_probability: 0.3,
          candidates: [
            ['fi', 0.3],
            ['en', 0.05],
          ],
        }),
        10,
      ),
    ).toEqual(['fi']);
  });

  it('should overrule the detected language only for a clearly likelier decode', () => {
    // Measured: a Spanish clip −0.42 in Spanish, −0.44 in Galician; robotic English −0.43 in Finnish, −0.24 in English.
    expect(
      pickDecode([
        { language: 'es', score: -0.423 },
        { language: 'gl', score: -0.437 },
      ]),
    ).toBe('es');
    expect(
      pickDecode([
        { language: 'es', score: -0.44 },
        { language: 'gl', score: -0.41 },
      ]),
    ).toBe('es');
    expect(
      pickDecode([
        { language: 'fi', score: -0.431 },
        { language: 'en', score: -0.244 },
      ]),
    ).toBe('en');
    expect(pickDecode([{ language: 'de', score: -0.3 }])).toBe('de');
  });

  it('should let the likelier decode alone decide between languages the detection heard alike', () => {
    // Measured: a Spanish read sentence heard as Galician 46.2 %, Spanish 45.8 %; decoded −0.49 and −0.45.
    const tie = [
      { language: 'gl', score: -0.493, probability: 0.4615 },
      { language: 'es', score: -0.454, probability: 0.4583 },
    ];
    expect(pickDecode(tie)).toBe('es');
    expect(pickDecode([tie[0], { ...tie[1], score: -0.5 }])).toBe('gl');
    // Not a tie (under DETECTION_TIE of the first's probability): the margin holds.
    expect(pickDecode([tie[0], { ...tie[1], probability: 0.9 * 0.4615 - 0.001 }])).toBe('gl');
    expect(pickDecode([tie[0], { ...tie[1], probability: 0.9 * 0.4615 }])).toBe('es');
    // Without the detection's probabilities (a requested language), the margin holds.
    expect(pickDecode(tie.map(({ language, score }) => ({ language, score })))).toBe('gl');
  });

  it('should score a decode by its text-weighted mean log-probability', () => {
    expect(decodeScore([])).toBe(Number.NEGATIVE_INFINITY);
    expect(
      decodeScore([
        { text: ' Hello there.', avg_logprob: -0.2 },
        { text: ' Ab', avg_logprob: -1.4 },
      ]),
    ).toBeCloseTo((12 * -0.2 + 2 * -1.4) / 14, 6);
  });

  it("should prompt in the language spoken, English's own setting for English", () => {
    expect(promptFor('de')).toMatch(/Ähm/);
    expect(promptFor('en', 'custom')).toBe('custom');
    expect(promptFor('ja')).toBe('');
  });
});
