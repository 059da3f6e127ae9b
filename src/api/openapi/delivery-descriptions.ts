/**
 * @module api/openapi/delivery-descriptions
 * What each field of the `delivery` extension means, summarised from docs/delivery.md, keyed by
 * the field's path in the result (as in result-descriptions).
 */

const DOC = 'docs/delivery.md';

export const DELIVERY_DESCRIPTIONS: Record<string, string> = {
  delivery: `Extension: the coaching numbers of the talk (pitch, loudness, repetitions, pace over time; eye contact and hands with visual analytics). Definitions: ${DOC}.`,
  'delivery.pitch':
    'Pitch of voiced speech (YIN pitch track, 10 ms frames, inside the voice-activity speech segments).',
  'delivery.pitch.voiced_sec': 'Seconds of voiced frames measured.',
  'delivery.pitch.median_hz': 'Median pitch, Hz; null with less than 1 s of voicing.',
  'delivery.pitch.range_st':
    'Spread between the 5th and 95th percentile of pitch, semitones (frames more than an octave from the median ignored).',
  'delivery.pitch.variation_st':
    'Standard deviation of pitch around the median, semitones (the measure of the `monotone` speaking style).',
  'delivery.pitch.monotone': 'True when `variation_st` < `monotone_below_st`; null when unknown.',
  'delivery.pitch.monotone_below_st':
    'Monotone threshold, semitones: 2, from Hincks (2005) (monotone speakers near a pitch variation quotient of 0.1 ≈ 1.7 st).',
  'delivery.loudness':
    'Loudness of voiced speech in 0.4 s blocks (the EBU R128 momentary window, unweighted RMS).',
  'delivery.loudness.measure': '`rms_dbfs`: unweighted RMS level in dB relative to full scale.',
  'delivery.loudness.level_dbfs':
    'Speech level: power mean of the block levels, dBFS (depends on recording gain).',
  'delivery.loudness.variation_db': 'Standard deviation of block levels, dB (independent of gain).',
  'delivery.loudness.range_db': 'Spread between the 5th and 95th percentile block level, dB.',
  'delivery.loudness.quiet_below_db':
    'A block this many dB below the speech level is quiet (10 dB ≈ half as loud, Stevens).',
  'delivery.loudness.quiet_stretches':
    'Stretches of at least 1 s of quiet blocks (widened over neighbouring blocks 6 dB down), in time order.',
  'delivery.loudness.quiet_stretches[].start': 'Start, seconds.',
  'delivery.loudness.quiet_stretches[].end': 'End, seconds.',
  'delivery.loudness.quiet_stretches[].level_db':
    'Level of the stretch relative to the speech level, dB (< 0).',
  'delivery.repetitions':
    'Immediate repetitions of a word or phrase of up to 4 words ("I I think", "we need to we need to"); the restarts are left out of `pos`.',
  'delivery.repetitions.count': 'Number of instances.',
  'delivery.repetitions.instances': 'One entry per repetition, in time order.',
  'delivery.repetitions.instances[].text': 'The repeated word or phrase, lower case.',
  'delivery.repetitions.instances[].count': 'Copies in a row (≥ 2).',
  'delivery.repetitions.instances[].start': 'Start of the first copy, seconds.',
  'delivery.repetitions.instances[].end': 'End of the last copy, seconds.',
  'delivery.pace':
    'Words per minute in sliding windows (same rate as `summary.words_per_minute`), and the stretches outside the band.',
  'delivery.pace.window_sec': 'Window length, seconds (15).',
  'delivery.pace.step_sec': 'Step between window starts, seconds (5).',
  'delivery.pace.band_wpm':
    "The comfortable band, WPM, as for the speaking style: [110, 170] for English; for ar, de, el, es, fi, fr, he, it, nl, pl and pt English's band scaled by the language's oral reading rate over English's on the same texts (IReST; German [86, 133]); English's for any other language (a warning says so).",
  'delivery.pace.windows':
    'Every window over the speaking time; speech shorter than one window is one window.',
  'delivery.pace.windows[].start': 'Window start, seconds.',
  'delivery.pace.windows[].end': 'Window end, seconds.',
  'delivery.pace.windows[].wpm': 'Lexical words whose middle falls in the window ÷ window length × 60.',
  'delivery.pace.outside_band': 'Overlapping windows below or above the band, merged.',
  'delivery.pace.outside_band[].start': 'Start, seconds.',
  'delivery.pace.outside_band[].end': 'End, seconds.',
  'delivery.pace.outside_band[].wpm': 'Rate over the whole stretch.',
  'delivery.pace.outside_band[].kind': '`slow` (below the band) or `fast` (above).',
  'delivery.eye_contact': 'With visual analytics: gaze at the camera.',
  'delivery.eye_contact.share':
    'Samples with `gaze_direction` `center` ÷ samples with a measured gaze (a face); null without faces.',
  'delivery.eye_contact.samples_with_face': 'Samples with a measured gaze.',
  'delivery.eye_contact.longest_look_away':
    'Longest run of face samples off centre (samples without a face neither break nor extend it); null when there is none.',
  'delivery.eye_contact.longest_look_away.start': 'Time of its first sample, seconds.',
  'delivery.eye_contact.longest_look_away.end': 'Time of the next sample, seconds.',
  'delivery.eye_contact.longest_look_away.duration': '`end − start`, seconds.',
  'delivery.gestures': 'With visual analytics: how much the hands are seen and used.',
  'delivery.gestures.hand_visible_share': 'Samples with at least one hand seen ÷ all samples.',
  'delivery.gestures.gesture_share':
    'Samples with at least one hand in a gesture shape (`open_hand` or `pinch_or_point`) ÷ all samples.',
};
