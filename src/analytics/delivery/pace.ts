/**
 * @module analytics/delivery/pace
 * Pace over time: words per minute in sliding windows, and the stretches outside the band.
 * Same rate as `summary.words_per_minute` (lexical words over speaking time, pauses included,
 * analytics/speech/pace), measured per window.
 */
import type { DeliveryPace } from '../../contract/delivery';
import { FAST_WPM, SLOW_WPM } from '../speech/style';
import type { Token } from '../speech/types';

/** Window length, s: at ~150 WPM it holds ~37 words, so one word more or less moves it ~4 WPM. */
export const PACE_WINDOW_SEC = 15;
/** Step between window starts, s. */
export const PACE_STEP_SEC = 5;
/** The band the `speaking_style` labels use (110–170 WPM; DEFINITIONS.md of analytics/speech). */
export const PACE_BAND_WPM: readonly [number, number] = [SLOW_WPM, FAST_WPM];

const r1 = (x: number) => Math.round(x * 10) / 10;
const r3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * WPM per window over the speaking time (first word start … last word end). Speech shorter than
 * one window is one window. Windows below/above the band are merged (while they overlap) into
 * `outside_band` stretches whose `wpm` is the stretch's own rate.
 *
 * @example
 * paceDelivery(tokens).windows // [{ start: 0.4, end: 15.4, wpm: 152.0 }, ...]
 */
export function paceDelivery(
  tokens: readonly Token[],
  windowSec = PACE_WINDOW_SEC,
  stepSec = PACE_STEP_SEC,
  band: readonly [number, number] = PACE_BAND_WPM,
): DeliveryPace {
  const words = tokens.filter((t) => !t.hesitation);
  const base = { window_sec: windowSec, step_sec: stepSec, band_wpm: [band[0], band[1]] as [number, number] };
  if (words.length === 0 || tokens.length === 0) return { ...base, windows: [], outside_band: [] };
  const t0 = tokens[0].start;
  const t1 = tokens.reduce((m, t) => Math.max(m, t.end), -Infinity);
  const mids = words.map((w) => (w.start + w.end) / 2);
  const rate = (a: number, b: number) =>
    b > a ? (mids.filter((m) => m >= a && m < b).length / (b - a)) * 60 : 0;

  const spans: Array<[number, number]> = [];
  if (t1 - t0 <= windowSec) spans.push([t0, t1]);
  else {
    let a = t0;
    for (; a + windowSec <= t1; a += stepSec) spans.push([a, a + windowSec]);
    if (spans[spans.length - 1][1] < t1) spans.push([t1 - windowSec, t1]);
  }
  // The last word's midpoint must fall inside the last window: close it at t1 inclusive.
  const windows = spans.map(([a, b]) => ({
    start: r3(a),
    end: r3(b),
    wpm: r1(rate(a, b === t1 ? b + 1e-9 : b)),
  }));

  const outside: DeliveryPace['outside_band'] = [];
  let cur: { start: number; end: number; kind: 'slow' | 'fast' } | null = null;
  const close = () => {
    if (cur) outside.push({ ...cur, wpm: r1(rate(cur.start, cur.end === r3(t1) ? t1 + 1e-9 : cur.end)) });
    cur = null;
  };
  for (const w of windows) {
    const kind = w.wpm < band[0] ? 'slow' : w.wpm > band[1] ? 'fast' : null;
    if (cur && (kind !== cur.kind || w.start > cur.end)) close();
    if (!kind) continue;
    if (cur) cur.end = w.end;
    else cur = { start: w.start, end: w.end, kind };
  }
  close();
  return { ...base, windows, outside_band: outside };
}
