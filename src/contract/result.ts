/**
 * @module contract/result
 * The `result` object of a completed analysis job, exactly as the interface specification (v2.2)
 * names its fields.
 * Speech analytics are always present; the video section only when `visual_analytics=true`.
 */
import { z } from 'zod';
import { Delivery } from './delivery.js';

export const AUDIO_SECTION_MARKER = '--- Audio Section ---';
export const VIDEO_SECTION_MARKER = '--- Video Section ---';

export const POS_TAGS = ['NOUN', 'VERB', 'ADP', 'ADJ', 'ADV', 'INTJ'] as const;
export type PosTag = (typeof POS_TAGS)[number];

const TimeSpan = z.object({ start: z.number(), end: z.number() });

export const FillerInstance = z.object({
  word: z.string(),
  start: z.number(),
  end: z.number(),
  confidence: z.number(),
});

export const Pause = z.object({
  start: z.number(),
  end: z.number(),
  duration: z.number(),
  is_long: z.boolean(),
});

export const SentimentWord = z.object({ time: z.number(), word: z.string(), compound: z.number() });

export const PosEntry = z.object({ word: z.string(), timestamps: z.array(TimeSpan) });

export const SpeakingStyle = z.object({
  style: z.string(),
  readability_grade: z.number(),
  lexical_diversity: z.number(),
});

export const Summary = z.object({
  duration_sec: z.number(),
  filler_word_count: z.number().int(),
  words_per_minute: z.number(),
  avg_word_duration: z.number(),
  speech_to_pause_ratio: z.number(),
  emotion: z.string(),
  speaking_style: SpeakingStyle,
});

/** The speech section. Every field the spec names; `warnings` is our documented extension. */
export const SpeechSection = z.object({
  'Audio Section': z.string(),
  transcript: z.string(),
  summary: Summary,
  filler_words: z.object({ count: z.number().int(), instances: z.array(FillerInstance) }),
  pauses: z.object({
    total: z.number().int(),
    long_pauses: z.number().int(),
    time_series: z.array(Pause),
  }),
  sentiment_words: z.array(SentimentWord),
  pos: z.object({
    NOUN: z.array(PosEntry),
    VERB: z.array(PosEntry),
    ADP: z.array(PosEntry),
    ADJ: z.array(PosEntry),
    ADV: z.array(PosEntry),
    INTJ: z.array(PosEntry),
  }),
});
export type SpeechSection = z.infer<typeof SpeechSection>;

export const VisualSample = z.object({
  time: z.number(),
  pose_detected: z.boolean(),
  raised_hand: z.boolean(),
  hands_on_hips: z.boolean(),
  left_hand_level_label: z.string(),
  right_hand_level_label: z.string(),
  left_hand_height: z.number(),
  right_hand_height: z.number(),
  left_hand_depth: z.number(),
  right_hand_depth: z.number(),
  gesture_left: z.string(),
  gesture_right: z.string(),
  eye_openness: z.number().min(0).max(1),
  gaze_direction: z.string().nullable(),
  emotion: z.string(),
  gaze_direction_x: z.enum(['left', 'center', 'right']),
  gaze_direction_y: z.enum(['up', 'center', 'down']),
  gaze_angle_x: z.number(),
  gaze_angle_y: z.number(),
  mouth_width: z.number(),
  mouth_open: z.number(),
  smile_ratio: z.number(),
});
export type VisualSample = z.infer<typeof VisualSample>;

export const EventFrameSummary = z.object({
  hands_on_hips: z.number(),
  left_hand_level_label: z.string(),
  right_hand_level_label: z.string(),
  gesture_left: z.string(),
  gesture_right: z.string(),
  emotion: z.string(),
  frame_times: z.array(z.number()),
});
/** `{}` when no frame falls in such an event. */
export const MaybeEventFrameSummary = z.union([EventFrameSummary, z.object({}).strict()]);

export const VisualSection = z.object({
  'Video Section': z.string(),
  gesture_summary: z.object({
    open_hand: z.number().int(),
    pinch_or_point: z.number().int(),
    none: z.number().int(),
  }),
  posture_summary: z.object({
    raised_hand: z.number().int(),
    hands_on_hips: z.number().int(),
    left_hand_high: z.number().int(),
    right_hand_high: z.number().int(),
    left_hand_forward: z.number().int(),
    right_hand_forward: z.number().int(),
  }),
  merged_visual_time_series: z.array(VisualSample),
  gesture_summary_word_sync: z.object({
    filler_summary: MaybeEventFrameSummary,
    pause_summary: MaybeEventFrameSummary,
    sentiment_positive_summary: MaybeEventFrameSummary,
    sentiment_negative_summary: MaybeEventFrameSummary,
  }),
});
export type VisualSection = z.infer<typeof VisualSection>;

/** Documented extension: why a section is thinner than usual (no audio stream, no person...). */
export const Warnings = z.object({ warnings: z.array(z.string()).optional() });

/**
 * Documented extension: which recogniser produced the words every speech number is derived
 * from (`faster-whisper` + `faster-whisper-base` by default; `pocketsphinx` when Whisper is not
 * installed, with a warning). Absent when the file has no audio.
 */
export const SpeechEngine = z.object({
  speech_engine: z.object({ engine: z.string(), model: z.string().nullable() }).optional(),
});

/**
 * Documented extension: the language the speech was transcribed in (a Whisper code, ISO 639-1
 * such as `de`), never translated; with a long stretch in another language (transcribed in its
 * own), the language most of the speech is in; `language_probability` is the recogniser's confidence when it
 * detected the language, null when the client set it. Both null when no speech was heard; absent
 * when the file has no audio.
 */
export const SpokenLanguageFields = z.object({
  language: z.string().nullable().optional(),
  language_probability: z.number().nullable().optional(),
});

/** Documented extension: the coaching numbers of the talk (docs/delivery.md). */
export const DeliveryExtension = z.object({ delivery: Delivery.optional() });

export const AnalysisResult = SpeechSection.merge(VisualSection.partial())
  .merge(SpeechEngine)
  .merge(SpokenLanguageFields)
  .merge(DeliveryExtension)
  .merge(Warnings);
export type AnalysisResult = z.infer<typeof AnalysisResult>;
