/**
 * @module web/results/cards
 * The summary cards: each figure against its coaching target (good, warn, or info).
 */
import type { Token } from './align.js';
import { card } from './card.js';
import { deliveryCards } from './delivery.js';
import { clock, esc, fmt, num } from './format.js';
import {
  MAX_FILLERS_PER_MIN,
  MAX_LONG_PAUSES_PER_MIN,
  MIN_GAZE_AT_CAMERA,
  paceTargetText,
  paceTargetWpm,
} from './targets.js';

/** The summary cards of a result, those of its `delivery` extension among them. */
export function cards(r: any, duration: number, tokens: Token[]): string {
  const out: string[] = [];
  const s = r.summary ?? {};
  const minutes = duration / 60;
  out.push(
    card(
      'duration',
      'Duration',
      duration ? clock(duration) : '–',
      duration ? `${fmt(duration)} s of media` : 'unknown',
      'info',
    ),
  );
  const wpm = num(s.words_per_minute);
  // A language written without spaces (Chinese, Japanese…) counts the recogniser's pieces.
  const pieces = (r.warnings ?? []).some((w: unknown) => String(w).startsWith('summary.words_per_minute:'));
  if (wpm !== null && pieces) {
    out.push(
      card(
        'pace',
        'Pace',
        `${fmt(wpm, 0)} <small>per min</small>`,
        'pieces, not words (see warnings)',
        'info',
      ),
    );
  } else if (wpm !== null) {
    // Another language's target is English's scaled to its words, or English's named as such.
    const [low, high] = paceTargetWpm(r.language);
    const ok = wpm >= low && wpm <= high;
    out.push(
      card(
        'pace',
        'Pace',
        `${fmt(wpm, 0)} <small>WPM</small>`,
        paceTargetText(r.language),
        wpm === 0 ? 'info' : ok ? 'good' : 'warn',
        wpm === 0
          ? 'no speech recognised'
          : wpm < low
            ? 'a little slow'
            : wpm > high
              ? 'a little fast'
              : 'comfortable',
      ),
    );
  }
  const spoke = tokens.length > 0 || (wpm ?? 0) > 0;
  if (r.filler_words) {
    const count = r.filler_words.count ?? 0;
    const perMin = minutes > 0 ? count / minutes : 0;
    out.push(
      card(
        'fillers',
        'Filler words',
        `${count} <small>· ${fmt(perMin)}/min</small>`,
        `target < ${MAX_FILLERS_PER_MIN}/min`,
        !spoke ? 'info' : perMin < MAX_FILLERS_PER_MIN ? 'good' : 'warn',
      ),
    );
  }
  if (r.pauses) {
    const longPerMin = minutes > 0 ? (r.pauses.long_pauses ?? 0) / minutes : 0;
    out.push(
      card(
        'pauses',
        'Pauses',
        `${r.pauses.total ?? 0} <small>· ${r.pauses.long_pauses ?? 0} long</small>`,
        `long pauses ≤ ${MAX_LONG_PAUSES_PER_MIN}/min`,
        !spoke ? 'info' : longPerMin <= MAX_LONG_PAUSES_PER_MIN ? 'good' : 'warn',
        `speech:pause ${fmt(s.speech_to_pause_ratio, 2)}`,
      ),
    );
  }
  if (s.speaking_style)
    out.push(
      card(
        'style',
        'Style',
        `<span class="word-value">${esc(String(s.speaking_style.style).replace(/_/g, ' '))}</span>`,
        `grade ${fmt(s.speaking_style.readability_grade)} · diversity ${fmt(s.speaking_style.lexical_diversity, 2)}`,
        'info',
      ),
    );
  if (s.emotion)
    out.push(
      card(
        'emotion',
        'Voice & words',
        `<span class="word-value">${esc(s.emotion)}</span>`,
        `${(r.sentiment_words ?? []).length} sentiment words`,
        'info',
      ),
    );
  if (r.language)
    out.push(
      card(
        'language',
        'Language',
        `<span class="word-value">${esc(r.language)}</span>`,
        r.language_probability != null
          ? `detected, ${fmt(r.language_probability * 100, 0)} %`
          : 'as requested',
        'info',
      ),
    );
  out.push(...deliveryCards(r.delivery));
  const samples: any[] = r.merged_visual_time_series ?? [];
  const faces = samples.filter((f) => f.gaze_direction !== null && f.gaze_direction !== undefined);
  if (faces.length) {
    const eye = r.delivery?.eye_contact;
    const at = num(eye?.share) ?? faces.filter((f) => f.gaze_direction === 'center').length / faces.length;
    const away = eye?.longest_look_away;
    out.push(
      card(
        'gaze',
        'Eye contact',
        `${Math.round(at * 100)}<small>%</small>`,
        `target ≥ ${Math.round(MIN_GAZE_AT_CAMERA * 100)}% at camera`,
        at >= MIN_GAZE_AT_CAMERA ? 'good' : 'warn',
        away ? `longest look-away ${fmt(away.duration)} s at ${clock(away.start)}` : '',
      ),
    );
  } else if (samples.length) {
    out.push(card('gaze', 'Eye contact', '–', 'no face seen', 'info'));
  }
  if (r.gesture_summary) {
    const g = r.gesture_summary;
    const total = (g.open_hand ?? 0) + (g.pinch_or_point ?? 0) + (g.none ?? 0);
    const active = total ? ((g.open_hand ?? 0) + (g.pinch_or_point ?? 0)) / total : 0;
    out.push(
      card(
        'gestures',
        'Gestures',
        `${Math.round(active * 100)}<small>%</small>`,
        'of hand-frames show a gesture',
        'info',
        `open hand ${g.open_hand ?? 0} · point ${g.pinch_or_point ?? 0}`,
      ),
    );
  }
  return `<ul class="cards" aria-label="Summary">${out.join('')}</ul>`;
}
