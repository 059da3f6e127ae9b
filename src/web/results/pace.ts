/**
 * @module web/results/pace
 * The local speaking pace over the media, for the timeline's pace lane.
 */
import type { Token } from './align.js';

/** Local pace: words starting in a sliding window, per minute. */
export function paceSeries(tokens: Token[], duration: number): Array<[number, number]> {
  const lexical = tokens.filter((t) => !t.filler && t.start !== null).map((t) => t.start as number);
  if (lexical.length < 2 || duration <= 0) return [];
  const win = Math.min(Math.max(4, duration / 6), 15);
  const steps = Math.min(120, Math.max(8, Math.ceil(duration / 1)));
  const out: Array<[number, number]> = [];
  for (let i = 0; i <= steps; i++) {
    const t = (duration * i) / steps;
    const lo = Math.max(0, Math.min(t - win / 2, duration - win));
    const hi = Math.min(duration, lo + win);
    const count = lexical.filter((s) => s >= lo && s < hi).length;
    out.push([t, (count / Math.max(0.001, hi - lo)) * 60]);
  }
  return out;
}
