/**
 * A hand-made, complete analysis result (speech and video sections) that satisfies the
 * contract's `AnalysisResult` schema: for rendering tests while the real pipeline's result is
 * still partial.
 */
import type { AnalysisResult } from '../../../src/contract/result.js';
import { eyeContact, gestureShares } from '../../../src/analytics/delivery/presence.js';

const SCRIPT: Array<[word: string, tag: string | null]> = [
  ['Um,', 'FILLER'],
  ['so', 'FILLER'],
  ['today', 'NOUN'],
  ['I', null],
  ['want', 'VERB'],
  ['to', null],
  ['talk', 'VERB'],
  ['about', 'ADP'],
  ['our', null],
  ['new', 'ADJ'],
  ['product.', 'NOUN'],
  ['It', null],
  ['is', null],
  ['really', 'ADV'],
  ['great', 'ADJ'],
  ['and', null],
  ['uh', 'FILLER'],
  ['customers', 'NOUN'],
  ['love', 'VERB'],
  ['it.', null],
  ['The', null],
  ['old', 'ADJ'],
  ['version', 'NOUN'],
  ['was', null],
  ['slow', 'ADJ'],
  ['and', null],
  ['painful', 'ADJ'],
  ['to', null],
  ['use.', 'VERB'],
  ['Like,', 'FILLER'],
  ['we', null],
  ['fixed', 'VERB'],
  ['that', null],
  ['completely.', 'ADV'],
  ['Thank', 'VERB'],
  ['you', null],
  ['all', null],
  ['very', 'ADV'],
  ['much.', 'ADV'],
];
const SENTIMENT: Record<string, number> = {
  great: 0.6249,
  love: 0.6369,
  slow: -0.1531,
  painful: -0.4939,
  fixed: 0.1,
  thank: 0.3612,
};

/** ~20 s of speech, one long pause, three fillers, 40 visual samples at 2 Hz. */
export function sampleResult(): AnalysisResult {
  let t = 0.4;
  const words = SCRIPT.map(([w, tag], i) => {
    if (i === 11) t += 1.4; // a long pause after "product."
    if (i === 29) t += 0.6;
    const start = +t.toFixed(2);
    const end = +(t + 0.32).toFixed(2);
    t = end + 0.12;
    return { w, tag, start, end, form: w.toLowerCase().replace(/[^a-z']/g, '') };
  });
  const pos: AnalysisResult['pos'] = { NOUN: [], VERB: [], ADP: [], ADJ: [], ADV: [], INTJ: [] };
  for (const w of words) {
    if (!w.tag || w.tag === 'FILLER') continue;
    const list = pos[w.tag as keyof typeof pos];
    const entry =
      list.find((e) => e.word === w.form) ?? (list.push({ word: w.form, timestamps: [] }), list.at(-1)!);
    entry.timestamps.push({ start: w.start, end: w.end });
  }
  const fillers = words
    .filter((w) => w.tag === 'FILLER')
    .map((w) => ({ word: w.form, start: w.start, end: w.end, confidence: 0.8 }));
  const pauses = words.slice(1).flatMap((w, i) => {
    const gap = +(w.start - words[i].end).toFixed(2);
    return gap >= 0.25 ? [{ start: words[i].end, end: w.start, duration: gap, is_long: gap >= 1 }] : [];
  });
  const duration = 20;
  const samples = Array.from({ length: 40 }, (_, i) => {
    const time = i * 0.5;
    const away = i >= 14 && i < 20;
    const gesture = i % 7 === 3 ? 'open_hand' : i % 11 === 5 ? 'pinch_or_point' : 'none';
    return {
      time,
      pose_detected: true,
      raised_hand: false,
      hands_on_hips: false,
      left_hand_level_label: 'waist',
      right_hand_level_label: gesture === 'none' ? 'waist' : 'chest',
      left_hand_height: 0.1,
      right_hand_height: gesture === 'none' ? 0.1 : 0.8,
      left_hand_depth: 0,
      right_hand_depth: -0.1,
      gesture_left: 'none',
      gesture_right: gesture,
      eye_openness: 0.9,
      gaze_direction: away ? 'down-left' : 'center',
      emotion: i > 30 ? 'happy' : 'neutral',
      gaze_direction_x: away ? ('left' as const) : ('center' as const),
      gaze_direction_y: away ? ('down' as const) : ('center' as const),
      gaze_angle_x: away ? -14 : 2,
      gaze_angle_y: away ? -12 : 1,
      mouth_width: 0.6,
      mouth_open: 0.12,
      smile_ratio: i > 30 ? 0.6 : 0.1,
    };
  });
  const summaryOf = (times: number[]) => ({
    hands_on_hips: 0,
    left_hand_level_label: 'waist',
    right_hand_level_label: 'waist',
    gesture_left: 'none',
    gesture_right: 'none',
    emotion: 'neutral',
    frame_times: times,
  });
  const lexical = words.filter((w) => w.tag !== 'FILLER').length;
  const speaking = words.at(-1)!.end - words[0].start;
  return {
    'Audio Section': '--- Audio Section ---',
    transcript: words.map((w) => w.w).join(' '),
    summary: {
      duration_sec: duration,
      filler_word_count: fillers.length,
      words_per_minute: +((lexical / speaking) * 60).toFixed(1),
      avg_word_duration: 0.32,
      speech_to_pause_ratio: 4.2,
      emotion: 'positive',
      speaking_style: { style: 'conversational', readability_grade: 4.1, lexical_diversity: 0.86 },
    },
    filler_words: { count: fillers.length, instances: fillers },
    pauses: {
      total: pauses.length,
      long_pauses: pauses.filter((p) => p.is_long).length,
      time_series: pauses,
    },
    sentiment_words: words
      .filter((w) => SENTIMENT[w.form] !== undefined)
      .map((w) => ({ time: w.start, word: w.form, compound: SENTIMENT[w.form] })),
    pos,
    'Video Section': '--- Video Section ---',
    gesture_summary: {
      open_hand: samples.filter((s) => s.gesture_right === 'open_hand').length,
      pinch_or_point: samples.filter((s) => s.gesture_right === 'pinch_or_point').length,
      none: samples.length * 2 - samples.filter((s) => s.gesture_right !== 'none').length,
    },
    posture_summary: {
      raised_hand: 0,
      hands_on_hips: 0,
      left_hand_high: 0,
      right_hand_high: 2,
      left_hand_forward: 0,
      right_hand_forward: 1,
    },
    merged_visual_time_series: samples,
    gesture_summary_word_sync: {
      filler_summary: summaryOf([0.5, 6.5]),
      pause_summary: summaryOf([4, 4.5, 5]),
      sentiment_positive_summary: summaryOf([5.5, 6]),
      sentiment_negative_summary: {},
    },
    warnings: ['Sample result for rendering tests.'],
  };
}

/**
 * A `delivery` extension to go with {@link sampleResult}: eye contact and hands computed from its
 * visual samples by the real analytics, pitch/loudness/pace/repetitions written out.
 */
export function sampleDelivery(
  result: AnalysisResult = sampleResult(),
): NonNullable<AnalysisResult['delivery']> {
  const visual = result.merged_visual_time_series ?? [];
  return {
    pitch: {
      voiced_sec: 9.4,
      median_hz: 182.3,
      range_st: 5.1,
      variation_st: 1.6,
      monotone: true,
      monotone_below_st: 2,
    },
    loudness: {
      measure: 'rms_dbfs',
      level_dbfs: -18.2,
      variation_db: 4.3,
      range_db: 13.5,
      quiet_below_db: 10,
      quiet_stretches: [{ start: 12.4, end: 14.1, level_db: -11.8 }],
    },
    repetitions: { count: 1, instances: [{ text: 'we need to', count: 2, start: 5.2, end: 7.9 }] },
    pace: {
      window_sec: 15,
      step_sec: 5,
      band_wpm: [110, 170],
      windows: [
        { start: 0.4, end: 15.4, wpm: 150 },
        { start: 4.6, end: 19.6, wpm: 176 },
      ],
      outside_band: [{ start: 4.6, end: 19.6, wpm: 176, kind: 'fast' }],
    },
    eye_contact: eyeContact(visual),
    gestures: gestureShares(visual),
  };
}
