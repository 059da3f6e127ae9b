/**
 * @module web/results/delivery
 * The `delivery` extension of a result (pitch, loudness, repetitions, pace outside its band): its
 * summary cards and its line under the timeline. Nothing without it.
 */
import { card } from './card.js';
import { clock, esc, fmt, num } from './format.js';

/** Cards of the `delivery` extension: pitch, loudness, repetitions (none without it). */
export function deliveryCards(d: any): string[] {
  if (!d || typeof d !== 'object') return [];
  const out: string[] = [];
  const p = d.pitch ?? {};
  if (num(p.median_hz) !== null)
    out.push(
      card(
        'pitch',
        'Pitch',
        `${fmt(p.median_hz, 0)} <small>Hz</small>`,
        `variation ≥ ${fmt(p.monotone_below_st, 0)} st`,
        p.monotone === true ? 'warn' : p.monotone === false ? 'good' : 'info',
        `variation ${fmt(p.variation_st)} st · range ${fmt(p.range_st)} st${p.monotone ? ' · monotone' : ''}`,
      ),
    );
  const l = d.loudness ?? {};
  const quiet: any[] = l.quiet_stretches ?? [];
  if (num(l.variation_db) !== null)
    out.push(
      card(
        'loudness',
        'Loudness',
        `${fmt(l.variation_db)} <small>dB varied</small>`,
        'no stretch ≥ 10 dB quieter',
        quiet.length ? 'warn' : 'good',
        quiet.length
          ? `quiet at ${quiet.map((q) => `${clock(q.start)}–${clock(q.end)}`).join(', ')}`
          : `level ${fmt(l.level_dbfs)} dBFS`,
      ),
    );
  const reps: any[] = d.repetitions?.instances ?? [];
  if (d.repetitions)
    out.push(
      card(
        'repetitions',
        'Repetitions',
        `${reps.length}`,
        'repeated words and phrases',
        'info',
        reps
          .slice(0, 3)
          .map((x) => `“${x.text}” ×${x.count} at ${clock(x.start)}`)
          .join(' · '),
      ),
    );
  return out;
}

/** One line of pitch and loudness under the timeline; '' without `delivery`. */
export function deliveryLine(d: any): string {
  if (!d?.pitch || !d?.loudness) return '';
  const p = d.pitch;
  const l = d.loudness;
  const outside: any[] = d.pace?.outside_band ?? [];
  const parts = [
    num(p.median_hz) === null
      ? 'Pitch: too little voiced speech'
      : `Pitch: median ${fmt(p.median_hz, 0)} Hz, variation ${fmt(p.variation_st)} st, range ${fmt(p.range_st)} st${p.monotone ? ' (monotone)' : ''}`,
    num(l.variation_db) === null
      ? ''
      : `Loudness: variation ${fmt(l.variation_db)} dB, ${(l.quiet_stretches ?? []).length} quiet stretch${(l.quiet_stretches ?? []).length === 1 ? '' : 'es'}`,
    outside.length
      ? `Pace outside ${d.pace.band_wpm.join('–')} WPM: ${outside.map((o: any) => `${o.kind} ${clock(o.start)}–${clock(o.end)} (${fmt(o.wpm, 0)})`).join(', ')}`
      : '',
  ].filter(Boolean);
  return `<p class="delivery-line" id="delivery-line">${esc(parts.join(' · '))}</p>`;
}
