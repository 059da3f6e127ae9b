/**
 * @module client/summary
 * A readable text summary of an analysis result (for the CLI): duration, pace, fillers,
 * pauses, style, the delivery numbers (pitch, loudness, repetitions, eye contact), top gestures
 * and gaze. Pure; renders whatever sections are present.
 */
import type { AnalysisResult } from '../contract/result.js';
import { bandInLanguage, wordRateRatio } from '../contract/speech-rate.js';

/** Coaching targets the summary compares against. */
export const TARGET_WPM = [130, 160] as const;
export const MAX_FILLERS_PER_MIN = 3;

/**
 * Pure: the pace target for speech in `language`, as the summary words it: English's; scaled to
 * the language's words where its word rate is known (contract/speech-rate, as the analysis scales
 * its band); else English's, named as such (the result's warnings say the same).
 * @example paceTarget('de') // "102–126, English's 130–160 scaled to German words"
 */
export function paceTarget(language: string | null | undefined): string {
  const [low, high] = bandInLanguage(TARGET_WPM, language);
  const english = `${TARGET_WPM[0]}–${TARGET_WPM[1]}`;
  if (!language || language === 'en') return english;
  if (wordRateRatio(language) === null) return `English's ${english}`;
  const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(language) ?? language;
  return `${low}–${high}, English's ${english} scaled to ${name} words`;
}

const n = (v: unknown, digits = 1) => (typeof v === 'number' && Number.isFinite(v) ? v.toFixed(digits) : '–');
const mmss = (sec: number) => `${Math.floor(sec / 60)}:${String(Math.floor(sec % 60)).padStart(2, '0')}`;

/** Counts of a label field across samples, most common first. */
export function tally<T>(items: T[], pick: (item: T) => string | null | undefined): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const item of items) {
    const key = pick(item);
    if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]);
}

/**
 * Formats a result as aligned lines of text.
 * @example
 * console.log(formatAnalysis(status.result));
 */
export function formatAnalysis(result: Partial<AnalysisResult> | null | undefined): string {
  if (!result) return 'no result';
  const lines: string[] = [];
  const row = (label: string, value: string, note = '') =>
    lines.push(`  ${label.padEnd(18)} ${value}${note ? `  (${note})` : ''}`);
  const s = result.summary;
  const duration = s?.duration_sec ?? 0;
  lines.push('Speech');
  row('duration', duration ? `${n(duration)} s (${mmss(duration)})` : '–');
  if (result.language)
    row(
      'language',
      result.language,
      result.language_probability != null
        ? `detected, ${n(result.language_probability * 100, 0)} %`
        : 'as requested',
    );
  // A language written without spaces counts the recogniser's pieces: no words-per-minute band.
  const pieces = result.warnings?.some((w) => w.startsWith('summary.words_per_minute:')) ?? false;
  if (s?.words_per_minute !== undefined) {
    const wpm = s.words_per_minute;
    const [low, high] = bandInLanguage(TARGET_WPM, result.language);
    const verdict =
      pieces && wpm > 0
        ? 'pieces, not words (see warnings)'
        : wpm === 0
          ? 'no speech'
          : wpm < low
            ? 'slower than'
            : wpm > high
              ? 'faster than'
              : 'within';
    row(
      'pace',
      `${n(wpm, 0)} ${pieces ? 'per min' : 'WPM'}`,
      wpm === 0 || pieces ? verdict : `${verdict} ${paceTarget(result.language)}`,
    );
  }
  const fillers = result.filler_words;
  if (fillers) {
    const perMin = duration > 0 ? (fillers.count / duration) * 60 : 0;
    const top = tally(fillers.instances, (f) => f.word)
      .slice(0, 3)
      .map(([w, c]) => `${w} ×${c}`)
      .join(', ');
    row(
      'fillers',
      `${fillers.count} (${n(perMin)}/min)`,
      [top, perMin < MAX_FILLERS_PER_MIN ? 'ok' : `target < ${MAX_FILLERS_PER_MIN}/min`]
        .filter(Boolean)
        .join('; '),
    );
  }
  if (result.pauses) {
    const longest = Math.max(0, ...result.pauses.time_series.map((p) => p.duration));
    row(
      'pauses',
      `${result.pauses.total}, ${result.pauses.long_pauses} long`,
      result.pauses.total ? `longest ${n(longest)} s` : '',
    );
  }
  if (s?.speech_to_pause_ratio !== undefined) row('speech:pause', n(s.speech_to_pause_ratio, 2));
  if (s?.speaking_style)
    row(
      'style',
      s.speaking_style.style,
      `grade ${n(s.speaking_style.readability_grade)}, diversity ${n(s.speaking_style.lexical_diversity, 2)}`,
    );
  if (s?.emotion) row('emotion', s.emotion);
  if (result.sentiment_words?.length) {
    const pos = result.sentiment_words.filter((w) => w.compound > 0).length;
    row('sentiment words', `${pos} positive, ${result.sentiment_words.length - pos} negative`);
  }
  if (result.transcript !== undefined)
    row(
      'transcript',
      result.transcript
        ? `"${result.transcript.length > 120 ? `${result.transcript.slice(0, 117)}…` : result.transcript}"`
        : '(no speech recognised)',
    );

  const d = result.delivery;
  if (d) {
    lines.push('Delivery');
    const p = d.pitch;
    row(
      'pitch',
      p.median_hz === null ? '–' : `median ${n(p.median_hz, 0)} Hz, variation ${n(p.variation_st)} st`,
      p.median_hz === null
        ? 'too little voiced speech'
        : `range ${n(p.range_st)} st; ${p.monotone ? `monotone (< ${p.monotone_below_st} st)` : 'varied'}`,
    );
    const l = d.loudness;
    row(
      'loudness',
      l.variation_db === null ? '–' : `variation ${n(l.variation_db)} dB`,
      l.quiet_stretches.length
        ? `quiet ${l.quiet_stretches.map((q) => `${mmss(q.start)}–${mmss(q.end)} (${n(q.level_db)} dB)`).join(', ')}`
        : l.variation_db === null
          ? ''
          : 'no quiet stretch',
    );
    row(
      'repetitions',
      String(d.repetitions.count),
      d.repetitions.instances
        .slice(0, 3)
        .map((x) => `"${x.text}" ×${x.count} at ${mmss(x.start)}`)
        .join(', '),
    );
    if (d.pace.windows.length)
      row(
        'pace over time',
        `${n(Math.min(...d.pace.windows.map((w) => w.wpm)), 0)}–${n(Math.max(...d.pace.windows.map((w) => w.wpm)), 0)} ${pieces ? 'per min' : 'WPM'}`,
        pieces
          ? 'pieces, not words'
          : d.pace.outside_band.length
            ? d.pace.outside_band.map((o) => `${o.kind} ${mmss(o.start)}–${mmss(o.end)}`).join(', ')
            : `within ${d.pace.band_wpm[0]}–${d.pace.band_wpm[1]} throughout`,
      );
    if (d.eye_contact)
      row(
        'eye contact',
        d.eye_contact.share === null ? 'no face' : `${Math.round(d.eye_contact.share * 100)}%`,
        d.eye_contact.longest_look_away
          ? `longest look-away ${n(d.eye_contact.longest_look_away.duration)} s at ${mmss(d.eye_contact.longest_look_away.start)}`
          : '',
      );
    if (d.gestures && d.gestures.hand_visible_share !== null)
      row(
        'hands',
        `seen ${Math.round(d.gestures.hand_visible_share * 100)}%`,
        `gesturing ${Math.round((d.gestures.gesture_share ?? 0) * 100)}%`,
      );
  }

  if (result.gesture_summary || result.merged_visual_time_series) {
    lines.push('Visual');
    if (result.gesture_summary) {
      const g = Object.entries(result.gesture_summary)
        .filter(([k]) => k !== 'none')
        .sort((a, b) => b[1] - a[1]);
      row('gestures', g.map(([k, v]) => `${k} ${v}`).join(', ') || '–', 'hand-frames');
    }
    if (result.posture_summary) {
      const p = Object.entries(result.posture_summary)
        .filter(([, v]) => v > 0)
        .sort((a, b) => b[1] - a[1]);
      row('posture', p.length ? p.map(([k, v]) => `${k} ${v}s`).join(', ') : 'neutral');
    }
    const samples = result.merged_visual_time_series ?? [];
    if (samples.length) {
      const faces = samples.filter((f) => f.gaze_direction !== null);
      const centred = faces.filter((f) => f.gaze_direction === 'center').length;
      row(
        'gaze',
        faces.length ? `${Math.round((centred / faces.length) * 100)}% at camera` : 'no face',
        tally(faces, (f) => f.gaze_direction)
          .slice(0, 3)
          .map(([k, c]) => `${k} ${Math.round((c / faces.length) * 100)}%`)
          .join(', '),
      );
      const emotions = tally(samples, (f) => (f.emotion === 'unknown' ? null : f.emotion)).slice(0, 2);
      if (emotions.length)
        row('face', emotions.map(([k, c]) => `${k} ${Math.round((c / samples.length) * 100)}%`).join(', '));
    }
  }
  if (result.warnings?.length) {
    lines.push('Warnings');
    for (const w of result.warnings) lines.push(`  ! ${w}`);
  }
  return lines.join('\n');
}
