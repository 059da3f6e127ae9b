/**
 * @module web/results/visual
 * The body-language section: gesture and posture bars, and the hands and face during speech events.
 */
import { esc } from './format.js';

/** The body-language section; '' without visual summaries. */
export function visual(r: any): string {
  if (!r.gesture_summary && !r.posture_summary && !r.gesture_summary_word_sync) return '';
  const bars = (obj: Record<string, number>, unit: string) => {
    const entries = Object.entries(obj ?? {});
    const max = Math.max(1, ...entries.map(([, v]) => v));
    return `<table class="bars"><tbody>${entries.map(([k, v]) => `<tr><th scope="row">${esc(k.replace(/_/g, ' '))}</th><td><svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true"><rect x="0" y="0" width="${((v / max) * 100).toFixed(1)}" height="10"/></svg></td><td class="num">${esc(v)} ${unit}</td></tr>`).join('')}</tbody></table>`;
  };
  const sync = r.gesture_summary_word_sync ?? {};
  const syncRows = Object.entries(sync)
    .map(
      ([k, v]: [string, any]) =>
        `<tr><th scope="row">${esc(k.replace(/_summary$/, '').replace(/_/g, ' '))}</th>${v && v.frame_times ? `<td>${esc(v.gesture_left)} / ${esc(v.gesture_right)}</td><td>${esc(v.left_hand_level_label)} / ${esc(v.right_hand_level_label)}</td><td>${esc(v.emotion)}</td><td class="num">${v.frame_times.length}</td>` : '<td colspan="4" class="muted">no frames</td>'}</tr>`,
    )
    .join('');
  return `<section aria-labelledby="h-visual"><h3 id="h-visual">Body language</h3><div class="grid2">
${r.gesture_summary ? `<div><h4>Gestures <small>(hand-frames)</small></h4>${bars(r.gesture_summary, '')}</div>` : ''}
${r.posture_summary ? `<div><h4>Posture <small>(seconds)</small></h4>${bars(r.posture_summary, 's')}</div>` : ''}</div>
${syncRows ? `<h4>During speech events</h4><table class="sync"><thead><tr><th>Event</th><th>Gestures L / R</th><th>Hands L / R</th><th>Face</th><th>Frames</th></tr></thead><tbody>${syncRows}</tbody></table>` : ''}</section>`;
}
