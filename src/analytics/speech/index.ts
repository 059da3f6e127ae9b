/**
 * @module analytics/speech
 * Pure speech analytics: transcript, fillers, pauses, pace, sentiment, parts of speech,
 * readability, lexical diversity, style and emotion, plus the pitch/energy tracker that feeds
 * them. No I/O; runs in workerd and Node alike. Definitions: `DEFINITIONS.md` beside this file.
 *
 * @example
 * import { analyzeSpeech, computeProsody } from '../analytics/speech';
 * const prosody = computeProsody(pcm, 16000);
 * const section = analyzeSpeech({ words, speech_segments, duration_sec, prosody });
 */
export { analyzeSpeech } from './analyze';
export { languageWarnings } from './languages';
export type { SpeechInput, SpeechOptions } from './types';
export {
  computeProsody,
  summarizeProsody,
  FRAME_SEC,
  MIN_PITCH_HZ,
  MAX_PITCH_HZ,
  type ProsodyOptions,
  type ProsodySummary,
} from './prosody';
export { MIN_PAUSE_SEC, LONG_PAUSE_SEC } from './pauses';
export { FILLER_BOUNDARY_SEC } from './fillers';
export { MAX_SENTENCE_WORDS } from './sentences';
export { DIVERSITY_WINDOW } from './lexical';
export { STYLE_LABELS, type StyleLabel } from './style';
export { EMOTION_LABELS, type EmotionLabel } from './emotion';
export {
  buildCues,
  toSrt,
  toWebVtt,
  CAPTION_MAX_LINE_CHARS,
  CAPTION_MAX_LINES,
  CAPTION_MAX_SEC,
  CAPTION_PAUSE_SEC,
  type Cue,
} from './captions';
