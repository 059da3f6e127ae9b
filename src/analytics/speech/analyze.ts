/**
 * @module analytics/speech/analyze
 * Assembles the contract's speech section from words, VAD segments and (optionally) prosody.
 */
import { AUDIO_SECTION_MARKER, type SpeechSection } from '../../contract/result';
import { detectRepetitions } from '../delivery/repetitions';
import { classifyEmotion } from './emotion';
import { detectFillers, FILLER_BOUNDARY_SEC } from './fillers';
import { detectSetOffFillers } from './fillers-set-off';
import { isWrittenWithoutSpaces, joinWords, speechLanguage } from './languages';
import { DIVERSITY_WINDOW, lexicalDiversity } from './lexical';
import { computePace } from './pace';
import { detectPauses, LONG_PAUSE_SEC, MIN_PAUSE_SEC } from './pauses';
import { buildPos, tagTokens } from './pos';
import { hasCompromiseTagger, tagTokensWithCompromise } from './pos-compromise';
import { summarizeProsody } from './prosody';
import { fleschKincaidGrade, gradeOfEase, readingEase } from './readability';
import { round, roundTime } from './round';
import { MAX_SENTENCE_WORDS, splitSentences } from './sentences';
import { overallValence, sentimentWords } from './sentiment';
import { classifyStyle, MIN_STYLE_SEC, MIN_STYLE_WORDS, paceBandFor } from './style';
import { buildTokens } from './tokens';
import type { SpeechInput, SpeechOptions } from './types';

/**
 * The speech section of an analysis result. Pure and deterministic; safe in workerd and Node.
 * With no words every count is 0, the transcript is empty and every `pos` key holds `[]`.
 *
 * @param options thresholds; defaults: `minPauseSec` 0.25, `longPauseSec` 1.0,
 *   `fillerBoundarySec` 0.15, `maxSentenceWords` 20, `diversityWindow` 50 (see DEFINITIONS.md)
 * @example
 * const section = analyzeSpeech({ words, speech_segments: vad, duration_sec: 62.4, prosody });
 * SpeechSection.parse(section); // always passes
 */
export function analyzeSpeech(input: SpeechInput, options: SpeechOptions = {}): SpeechSection {
  const {
    minPauseSec = MIN_PAUSE_SEC,
    longPauseSec = LONG_PAUSE_SEC,
    fillerBoundarySec = FILLER_BOUNDARY_SEC,
    maxSentenceWords = MAX_SENTENCE_WORDS,
    diversityWindow = DIVERSITY_WINDOW,
  } = options;

  // English has a tagger, a sentiment lexicon and finer filler rules; other languages have
  // their hesitations, markers and readability formula (languages.ts), German, French and Spanish
  // a tagger of their own (pos-compromise), and no English tag, sentiment or formula is ever
  // applied to their words (`languageWarnings` says what is reduced).
  const language = input.language ?? 'en';
  const english = language === 'en';
  const profile = speechLanguage(language);
  const tokens = buildTokens(input.words ?? [], language);
  const tags = english
    ? tagTokens(tokens)
    : hasCompromiseTagger(language)
      ? tagTokensWithCompromise(tokens, language)
      : tokens.map((t) => (t.hesitation ? 'INTJ' : 'X'));
  const fillers = english
    ? detectFillers(tokens, tags, { boundarySec: fillerBoundarySec })
    : detectSetOffFillers(tokens, profile.markers, { boundarySec: fillerBoundarySec });
  const fillerTokens = new Set(fillers.flatMap((f) => f.tokens));
  // Single-word discourse fillers ("like" used as a filler) are interjections in UD terms.
  const interjections = new Set(fillers.filter((f) => f.tokens.length === 1).map((f) => f.tokens[0]));

  // Restarts of a repeated word or phrase ("we need to we need to") are not content words.
  const restarts = new Set(detectRepetitions(tokens).flatMap((r) => r.restartTokens));

  const pauses = detectPauses(tokens, input.speech_segments ?? [], { minPauseSec, longPauseSec });
  const pace = computePace(tokens, pauses, minPauseSec);
  const sentences = splitSentences(tokens, pauses, { maxSentenceWords, longPauseSec });
  const grade = english ? fleschKincaidGrade(sentences) : otherGrade(sentences, language);
  const diversity = lexicalDiversity(tokens, diversityWindow);
  const prosody = input.prosody ? summarizeProsody(input.prosody) : null;
  const enoughSpeech = pace.word_count >= MIN_STYLE_WORDS && pace.speaking_time_sec >= MIN_STYLE_SEC;
  // Words of Chinese, Japanese… are the recogniser's pieces: their rate is no words per minute.
  const comparableRate = isWrittenWithoutSpaces(language) ? null : pace.words_per_minute;
  const paceBandWpm = paceBandFor(language);

  const style = classifyStyle({
    wordCount: pace.word_count,
    speakingTimeSec: pace.speaking_time_sec,
    wordsPerMinute: comparableRate,
    paceBandWpm,
    pauses: pauses.length,
    longPauses: pauses.filter((p) => p.is_long).length,
    pauseTimeSec: pace.pause_time_sec,
    pitchStdSt: prosody?.pitch_std_st ?? null,
    readabilityGrade: grade,
  });
  const emotion =
    tokens.length === 0
      ? 'neutral'
      : classifyEmotion({
          valence: english ? overallValence(sentences, fillerTokens) : 0,
          pitchStdSt: prosody?.pitch_std_st ?? null,
          energyStdDb: prosody?.energy_std_db ?? null,
          wordsPerMinute: enoughSpeech ? comparableRate : null,
          paceBandWpm,
        });

  const instances = fillers.map((f) => ({
    word: f.word,
    start: roundTime(f.start),
    end: roundTime(f.end),
    confidence: round(f.confidence, 3),
  }));
  const timeSeries = pauses.map((p) => ({
    start: roundTime(p.start),
    end: roundTime(p.end),
    duration: roundTime(p.duration),
    is_long: p.is_long,
  }));

  return {
    'Audio Section': AUDIO_SECTION_MARKER,
    transcript: joinWords(
      tokens.map((t) => t.text),
      language,
    ),
    summary: {
      duration_sec: roundTime(Math.max(0, input.duration_sec)),
      filler_word_count: instances.length,
      words_per_minute: round(pace.words_per_minute, 1),
      avg_word_duration: roundTime(pace.avg_word_duration),
      speech_to_pause_ratio: round(pace.speech_to_pause_ratio, 2),
      emotion,
      speaking_style: {
        style,
        readability_grade: round(grade, 2),
        lexical_diversity: round(diversity, 3),
      },
    },
    filler_words: { count: instances.length, instances },
    pauses: {
      total: timeSeries.length,
      long_pauses: timeSeries.filter((p) => p.is_long).length,
      time_series: timeSeries,
    },
    sentiment_words: (english ? sentimentWords(tokens, tags, fillerTokens) : []).map((s) => ({
      time: roundTime(s.time),
      word: s.word,
      compound: round(s.compound, 4),
    })),
    pos: buildPos(
      tokens.filter((t) => !restarts.has(t.index)),
      tags,
      interjections,
    ),
  };
}

/** The grade of a non-English transcript by its language's own formula; 0 without one. */
function otherGrade(sentences: Parameters<typeof readingEase>[0], language: string): number {
  const formula = speechLanguage(language).readability;
  const ease = formula ? readingEase(sentences, formula, language) : null;
  return formula && ease !== null ? gradeOfEase(ease, formula.kind) : 0;
}
