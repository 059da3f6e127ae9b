/**
 * @module api/openapi/result-descriptions
 * What each field of the analysis result means, summarised from the analytics definitions
 * (`src/analytics/speech/DEFINITIONS.md`, `src/analytics/visual/DEFINITIONS.md`), keyed by the
 * field's path in the result (`a.b` for properties, `a[]` for array items).
 */

import { DELIVERY_DESCRIPTIONS } from './delivery-descriptions.js';

const SPEECH_DEFS = 'src/analytics/speech/DEFINITIONS.md';
const VISUAL_DEFS = 'src/analytics/visual/DEFINITIONS.md';

/** Field path → description. Times are seconds from the start of the media. */
export const RESULT_DESCRIPTIONS: Record<string, string> = {
  '': `The analysis result. Speech analytics are always present; the video section only when \`visual_analytics=true\` was sent. Definitions: ${SPEECH_DEFS} and ${VISUAL_DEFS}. All times are seconds from the start of the media.`,
  'Audio Section': 'Marker string `--- Audio Section ---`.',
  transcript:
    'Cleaned recognised words joined by single spaces, fillers included, non-speech markers removed; `""` when no speech was recognised.',
  summary: 'Headline numbers of the speech.',
  'summary.duration_sec': 'Media duration in seconds (3 decimals).',
  'summary.filler_word_count': 'Number of filler words; equals `filler_words.count`.',
  'summary.words_per_minute':
    'Speaking pace: lexical words (fillers excluded) ÷ speaking time × 60, speaking time = last word end − first word start (pauses included). 0 without words. Coaching band: 110–170, ~150 is conversational.',
  'summary.avg_word_duration': 'Mean duration of lexical words, seconds.',
  'summary.speech_to_pause_ratio':
    '(speaking time − pause time) ÷ pause time (pause time floored at the minimum pause, 0.25 s). Higher = fewer pauses. 0 without words.',
  'summary.emotion':
    'Overall emotion from word valence (VADER, English only; other languages: the voice alone) × voice arousal (pitch, energy, pace): content, positive, enthusiastic, calm, neutral, energetic, sad, negative, agitated.',
  'summary.speaking_style': 'Style label and language measures.',
  'summary.speaking_style.style':
    'First matching of: insufficient_speech (< 10 words or < 5 s), rushed, hesitant, monotone, fast (> 170 WPM), slow (< 110 WPM), expressive, complex (grade > 12), conversational.',
  'summary.speaking_style.readability_grade':
    "School grade of the transcript's language: English by Flesch–Kincaid (≥ 0); German, Spanish, French, Portuguese, Dutch by their own Flesch-type reading ease (Amstad, Fernández Huerta, Kandel–Moles, Martins, Douma) and Italian by Gulpease, each read as a grade through its authors' bands; 0 for a language without a formula (then `warnings` says so).",
  'summary.speaking_style.lexical_diversity':
    'Unique ÷ total word forms (moving-average TTR with a 50-word window above 50 words), 0–1.',
  filler_words:
    "Filler words in the speech's language: its hesitation sounds always (English um, uh, er, hmm; German äh, ähm; Spanish eh, em; French euh, hum; Portuguese hã, hum; Italian ehm, eh; Dutch uh, ehm); discourse words (English like, so, well, you know…; Spanish este, o sea; French ben, du coup; Italian cioè, tipo…) only when detached from the sentence by a pause or punctuation. Other languages: hm and mm only.",
  'filler_words.count': 'Number of instances.',
  'filler_words.instances': 'One entry per filler; a multi-word filler ("you know") is one entry.',
  'filler_words.instances[].word': 'Lower-case form of the filler.',
  'filler_words.instances[].start': 'Start, seconds.',
  'filler_words.instances[].end': 'End, seconds.',
  'filler_words.instances[].confidence':
    'Recogniser confidence 0–1 (lowest among its words). A hesitation Whisper heard but did not write has the probability Whisper gave a hesitation there (English); one only the aligner heard has 0.5.',
  pauses: 'Silences inside the speech (first word start … last word end) of at least 0.25 s.',
  'pauses.total': 'Number of pauses.',
  'pauses.long_pauses': 'Number of pauses of 1.0 s or more.',
  'pauses.time_series': 'Every pause, in time order.',
  'pauses.time_series[].start': 'Start, seconds.',
  'pauses.time_series[].end': 'End, seconds.',
  'pauses.time_series[].duration': '`end − start`, seconds.',
  'pauses.time_series[].is_long': 'True when the pause lasts 1.0 s or more.',
  sentiment_words:
    'English only (empty for other languages, with a warning). Every sentiment-bearing word (VADER compound ≠ 0), fillers and function words skipped; a negation within the 3 previous words flips it.',
  'sentiment_words[].time': 'Word start, seconds.',
  'sentiment_words[].word': 'Lower-case word.',
  'sentiment_words[].compound': 'VADER compound score, −1 (negative) to +1 (positive).',
  pos: "Universal parts of speech (strict UD: proper nouns and auxiliaries are not listed). One entry per distinct lower-case word per tag, with every occurrence's time span. All six keys are always present; arrays may be empty. German, French, Spanish: the language's rule-based tagger (compromise), less accurate, named in a warning. Other languages: hesitations under INTJ only, the other keys empty (with a warning).",
  language:
    'Extension: the language the speech is in and was transcribed in (never translated): a Whisper code, ISO 639-1 such as `de` (`haw` for Hawaiian). Detected from the speech unless `language` was sent. A stretch of 10 s or more that the recogniser is sure is in another language is transcribed in that language (`warnings` names it); this field is then the language most of the speech is in. Null when no speech was recognised; absent without an audio stream.',
  language_probability:
    "Extension: the recogniser's probability (0–1) for `language`, averaged over up to three 30 s windows of the speech; null when the client set the language or no speech was recognised. Below 0.5 `warnings` says the language is uncertain. When the detection was unsure and the decode in a runner-up language was kept, it is that language's probability (lower than the first's; `warnings` names both). When `language` is the language of stretches transcribed apart (see `language`), the lowest probability at which their utterances were heard in it.",
  speech_engine:
    'Extension: the speech recogniser whose words every speech number is derived from. Absent without an audio stream.',
  'speech_engine.engine':
    '`faster-whisper` (Whisper, the default) or `pocketsphinx` (the fallback when the Whisper weights are not installed; then `warnings` says so).',
  'speech_engine.model': 'The model, e.g. `faster-whisper-base` or `pocketsphinx-en-us`; null when unknown.',
  warnings:
    'Extension: why a section is thinner than usual (for example no audio stream, no person in view, a body but no face in view (its numbers unmeasured), the fallback speech engine, rough word times when the forced aligner is unavailable, a recording too quiet for speech detection: loudest sounds below -40 dBFS, a stereo recording whose channels cancel when mixed and whose speech was taken from their difference, a first audio track that is silent or holds no speech, whose speech was taken from a later track, a file that holds less than its header announces: cut short, analysed as far as it goes). Absent when there is nothing to report.',
  'Video Section':
    'Marker string `--- Video Section ---`. Present with the other video fields only when `visual_analytics=true`.',
  gesture_summary:
    'Hand-frames per gesture: each sampled frame counts once for the left and once for the right hand (sum = 2 × frames); an unseen hand counts as `none`.',
  'gesture_summary.open_hand': 'Four or five fingers extended.',
  'gesture_summary.pinch_or_point': 'Thumb and index tips together, or index extended alone.',
  'gesture_summary.none': 'No hand seen, or another shape (fist…).',
  posture_summary:
    'Whole seconds spent in each posture (each sampled frame stands for the time to the next one).',
  'posture_summary.raised_hand': 'A wrist above the nose line.',
  'posture_summary.hands_on_hips': 'Both wrists at their hips with elbows out (akimbo).',
  'posture_summary.left_hand_high': 'Left wrist above the shoulder line.',
  'posture_summary.right_hand_high': 'Right wrist above the shoulder line.',
  'posture_summary.left_hand_forward': 'Left hand reaching toward the camera (depth ≥ 0.3).',
  'posture_summary.right_hand_forward': 'Right hand reaching toward the camera (depth ≥ 0.3).',
  merged_visual_time_series:
    "One element per sampled frame, in time order. Left/right are always the person's own side.",
  'merged_visual_time_series[].time': 'Frame time, seconds.',
  'merged_visual_time_series[].pose_detected': 'A usable body (at least one shoulder) was seen.',
  'merged_visual_time_series[].raised_hand': 'A wrist above the nose line.',
  'merged_visual_time_series[].hands_on_hips': 'Both hands on the hips, elbows out.',
  'merged_visual_time_series[].left_hand_level_label':
    'above_head, shoulder, chest, waist, below_waist or not_visible.',
  'merged_visual_time_series[].right_hand_level_label':
    'above_head, shoulder, chest, waist, below_waist or not_visible.',
  'merged_visual_time_series[].left_hand_height':
    '(hip line − wrist) ÷ shoulder width; positive = above the hips; 0 when not visible.',
  'merged_visual_time_series[].right_hand_height':
    '(hip line − wrist) ÷ shoulder width; positive = above the hips; 0 when not visible.',
  'merged_visual_time_series[].left_hand_depth':
    'Reach toward the camera, 0 = shoulder plane; positive = nearer, negative = farther or turned away.',
  'merged_visual_time_series[].right_hand_depth':
    'Reach toward the camera, 0 = shoulder plane; positive = nearer, negative = farther or turned away.',
  'merged_visual_time_series[].gesture_left': 'open_hand, pinch_or_point or none.',
  'merged_visual_time_series[].gesture_right': 'open_hand, pinch_or_point or none.',
  'merged_visual_time_series[].eye_openness':
    "Eye aspect ratio relative to the person's own open eyes, 0 (closed/no face) to 1 (open).",
  'merged_visual_time_series[].gaze_direction':
    '`center`, or the off-centre parts joined vertical first (`up`, `left`, `down-right`…); null without a face.',
  'merged_visual_time_series[].emotion':
    'Facial emotion: angry, disgust, fear, happy, sad, surprise, neutral, or unknown without a face.',
  'merged_visual_time_series[].gaze_direction_x':
    "`right`/`left` beyond ±10° horizontally (person's own side), else `center`.",
  'merged_visual_time_series[].gaze_direction_y': '`up`/`down` beyond ±10° vertically, else `center`.',
  'merged_visual_time_series[].gaze_angle_x':
    "Degrees, + = toward the person's own right (eyes in head plus head yaw).",
  'merged_visual_time_series[].gaze_angle_y': 'Degrees, + = up (eyes in head minus head pitch).',
  'merged_visual_time_series[].mouth_width':
    'Mouth-corner distance ÷ inter-ocular distance (typically 0.5–0.7).',
  'merged_visual_time_series[].mouth_open':
    'Inner-lip gap ÷ inter-ocular distance (0 closed, ~0.1–0.3 talking).',
  'merged_visual_time_series[].smile_ratio':
    "Facial positivity 0–1 relative to the person's own neutral mouth.",
  gesture_summary_word_sync:
    'Body language during speech events: the frames inside filler words, pauses, positive and negative sentiment words. `{}` when no frame falls in such an event.',
  ...DELIVERY_DESCRIPTIONS,
};

/** Descriptions shared by the four word-sync summaries (`EventFrameSummary`). */
export const EVENT_SUMMARY_DESCRIPTIONS: Record<string, string> = {
  hands_on_hips: 'Fraction (0–1) of the selected frames with hands on hips.',
  left_hand_level_label: 'Most common left-hand level in the selected frames.',
  right_hand_level_label: 'Most common right-hand level in the selected frames.',
  gesture_left: 'Most common left-hand gesture.',
  gesture_right: 'Most common right-hand gesture.',
  emotion: 'Most common facial emotion.',
  frame_times: 'Times of the selected frames, seconds.',
};
