import { describe, expect, it } from 'vitest';
import { analyzeSpeech, languageWarnings } from '../../../../../src/analytics/speech';
import { detectSetOffFillers } from '../../../../../src/analytics/speech/fillers-set-off';
import { isHesitationAnywhere, isHesitationIn } from '../../../../../src/analytics/speech/languages';
import { countSyllablesIn, gradeOfEase, readingEase } from '../../../../../src/analytics/speech/readability';
import { buildTokens } from '../../../../../src/analytics/speech/tokens';
import { SpeechSection } from '../../../../../src/contract/result';
import { wordsOf } from './helpers';

describe('hesitation sounds per language', () => {
  it("should count each language's own and never another's", () => {
    expect(['äh', 'ähm', 'öhm', 'hm'].every((w) => isHesitationIn(w, 'de'))).toBe(true);
    // German "um" is a preposition ("um acht Uhr"), Portuguese "em" means "in".
    expect(isHesitationIn('um', 'de')).toBe(false);
    expect(isHesitationIn('um', 'en')).toBe(true);
    expect(isHesitationIn('em', 'pt')).toBe(false);
    expect(isHesitationIn('em', 'es')).toBe(true);
    expect(['euh', 'heu', 'hum'].every((w) => isHesitationIn(w, 'fr'))).toBe(true);
    expect(isHesitationIn('eu', 'fr')).toBe(false); // "j'ai eu"
    expect(['hã', 'ãh', 'hum'].every((w) => isHesitationIn(w, 'pt'))).toBe(true);
    expect(['ehm', 'eh'].every((w) => isHesitationIn(w, 'it'))).toBe(true);
    expect(['uh', 'uhm', 'ehm'].every((w) => isHesitationIn(w, 'nl'))).toBe(true);
    // A language without a profile: only the sounds that are no word anywhere.
    expect(isHesitationIn('hmm', 'ja')).toBe(true);
    expect(isHesitationIn('eh', 'ja')).toBe(false);
    expect(isHesitationAnywhere('äh')).toBe(true);
    expect(isHesitationAnywhere('haus')).toBe(false);
  });
});

describe('set-off discourse markers (non-English fillers)', () => {
  const fillers = (text: string, lang: string, markers: string[]) =>
    detectSetOffFillers(buildTokens(wordsOf(text), lang), markers).map((f) => f.word);

  it('should count a marker set off on both sides and not the same word inside a phrase', () => {
    expect(fillers('Quiero, este, comprar este libro.', 'es', ['este', 'o sea'])).toEqual(['este']);
    expect(fillers('Es caro, o sea, muy caro.', 'es', ['este', 'o sea'])).toEqual(['o sea']);
    expect(fillers('Eh, me voy /0.5/ o sea mañana.', 'es', ['o sea'])).toEqual(['eh']);
    expect(fillers('Also, äh, ich gehe also nach Hause.', 'de', ['also'])).toEqual(['also', 'äh']);
  });
});

describe('readability in the language', () => {
  it('should count syllables by vowel runs, French mute e dropped', () => {
    expect(countSyllablesIn('Aussichten', 'de')).toBe(3);
    expect(countSyllablesIn('recomienda', 'es')).toBe(4);
    expect(countSyllablesIn('table', 'fr')).toBe(1);
    expect(countSyllablesIn('été', 'fr')).toBe(2);
    expect(countSyllablesIn('123', 'de')).toBe(1);
  });

  it("should apply the language's formula and read it as a grade", () => {
    const tokens = buildTokens(wordsOf('Der Hund läuft. Die Katze schläft.'), 'de');
    const sentences = [tokens.slice(0, 3), tokens.slice(3)];
    // Amstad: 180 − 3 words/sentence − 58.5 × 7/6 syllables/word (der hund läuft die kat-ze schläft).
    const formula = { kind: 'flesch' as const, name: 'Amstad', a: 180, b: 1, c: 58.5 };
    expect(readingEase(sentences, formula, 'de')).toBeCloseTo(180 - 3 - 58.5 * (7 / 6), 6);
    expect(gradeOfEase(100, 'flesch')).toBe(4.5);
    expect(gradeOfEase(65, 'flesch')).toBe(8.5);
    expect(gradeOfEase(47.5, 'flesch')).toBeCloseTo(12.75, 6);
    expect(gradeOfEase(-20, 'flesch')).toBe(18);
    expect(gradeOfEase(60, 'gulpease')).toBe(8);
  });
});

describe('analyzeSpeech in another language', () => {
  const words = wordsOf(
    'Für die besten Aussichten, äh, sollten Sie die Insel verlassen. /1.2/ Ähm, das ist gut und schön.',
  );

  it('should count German hesitations and apply no English tagger, lexicon or formula', () => {
    const de = SpeechSection.parse(
      analyzeSpeech({ words, speech_segments: [], duration_sec: 10, language: 'de' }),
    );
    expect(de.filler_words.instances.map((f) => f.word)).toEqual(['äh', 'ähm']);
    // "gut" and "schön" are English-lexicon-free: no sentiment; German words get German tags.
    expect(de.sentiment_words).toEqual([]);
    expect(de.pos.INTJ.map((e) => e.word).sort()).toEqual(['äh', 'ähm']);
    expect(de.pos.NOUN.map((e) => e.word)).toEqual(expect.arrayContaining(['aussichten', 'insel']));
    expect(de.pos.VERB.map((e) => e.word)).toContain('verlassen');
    // Closed classes: "die" a determiner, "ist" an auxiliary, "sollten" a modal: none listed.
    const listed = Object.values(de.pos).flatMap((entries) => entries.map((e) => e.word));
    for (const w of ['die', 'ist', 'sollten', 'sie', 'und']) expect(listed).not.toContain(w);
    expect(de.summary.speaking_style.readability_grade).toBeGreaterThan(0);
    expect(de.summary.words_per_minute).toBeGreaterThan(0);
    // The same words read as English would give a different grade (English formula).
    const en = analyzeSpeech({ words, speech_segments: [], duration_sec: 10 });
    expect(en.summary.speaking_style.readability_grade).not.toBe(de.summary.speaking_style.readability_grade);
  });

  it('should name each reduced section in warnings, none for English', () => {
    expect(languageWarnings('en')).toEqual([]);
    expect(languageWarnings(null)).toEqual([]);
    const de = languageWarnings('de');
    expect(de.map((w) => w.split(':')[0])).toEqual([
      'pos',
      'sentiment_words',
      'delivery.pace.band_wpm',
      'summary.speaking_style.readability_grade',
    ]);
    expect(de.join(' ')).toMatch(/German \(de\) is tagged by de-compromise.*Flesch–Amstad/s);
    // The pace band is English's scaled to German's longer words, and says how; a language whose
    // word rate is unknown keeps English's and says so; a rate of pieces has no band at all (below).
    expect(de.join(' ')).toMatch(
      /English's conversational 110–170 words per minute scaled to the words of German \(de\): 86–133, .*179 .*228/,
    );
    expect(languageWarnings('sv').join(' ')).toMatch(
      /band \(110–170 words per minute\).*English's conversational norm/,
    );
    expect(languageWarnings('it')[0]).toMatch(/^pos: no part-of-speech tagger for Italian/);
    expect(languageWarnings('ja').map((w) => w.split(':')[0])).toEqual([
      'pos',
      'sentiment_words',
      'summary.words_per_minute',
      'filler_words',
      'summary.speaking_style.readability_grade',
    ]);
  });
});

describe('languages written without spaces (Chinese, Japanese, Thai…)', () => {
  // Whisper's pieces of a Chinese sentence (CSS10's Lu Xun reading, as the engine now gives them).
  const pieces = '我在 這 一個 獎 堂 中, 便 去 常 常 隨 喜 我的 同 學 們 的 拍 手 和 賀 彩。';

  it('should write the transcript without spaces, and say what the rate counts', () => {
    const words = wordsOf(pieces, { dur: 0.22, gap: 0.06 });
    const zh = analyzeSpeech({ words, speech_segments: [], duration_sec: 7, language: 'zh' });
    expect(zh.transcript).toBe('我在這一個獎堂中,便去常常隨喜我的同學們的拍手和賀彩。');
    expect(zh.summary.words_per_minute).toBeGreaterThan(170);
    // About 3.6 pieces a second is no "fast" speech: the style does not judge a rate of pieces.
    expect(zh.summary.speaking_style.style).not.toMatch(/fast|rushed|slow|insufficient_speech/);
    expect(languageWarnings('zh').join(' ')).toMatch(
      /summary\.words_per_minute: zh is written without spaces/,
    );
    for (const l of ['en', 'de', 'ko', 'ru'])
      expect(languageWarnings(l).join(' ')).not.toMatch(/without spaces/);
  });

  it('should keep spaces between the words of every other language', () => {
    const words = wordsOf('그는 이리저리 피하면서 길 한 옆으로 걸어갔다.');
    expect(analyzeSpeech({ words, speech_segments: [], duration_sec: 4, language: 'ko' }).transcript).toBe(
      '그는 이리저리 피하면서 길 한 옆으로 걸어갔다.',
    );
  });
});
