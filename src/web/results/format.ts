/**
 * @module web/results/format
 * Text helpers of the results view: HTML escaping and number and clock formats.
 */

/** Escapes text for HTML content and attribute values. */
export const esc = (s: unknown) =>
  String(s ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
/** The number, or null when `v` is not a finite number. */
export const num = (v: unknown): number | null => (typeof v === 'number' && isFinite(v) ? v : null);
/** `v` with `d` decimals, or an en dash when it is not a number. */
export const fmt = (v: unknown, d = 1) => (num(v) === null ? '–' : (v as number).toFixed(d));
/** Seconds as m:ss. */
export const clock = (sec: number) =>
  `${Math.floor(sec / 60)}:${String(Math.floor(sec % 60)).padStart(2, '0')}`;
