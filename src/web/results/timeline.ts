/**
 * @module web/results/timeline
 * The SVG timeline: one lane each for pace, pauses and fillers, quiet stretches and repeats,
 * sentiment, gaze and gestures, with ticks, a playhead and a legend; the delivery line under it.
 * Its `data-x0`/`data-x1`/`data-duration` let the page map a click to a time.
 */
import type { Token } from './align.js';
import { deliveryLine } from './delivery.js';
import { clock, esc, fmt } from './format.js';
import { paceSeries } from './pace.js';
import { paceTargetWpm } from './targets.js';

const W = 1000;
const LABEL_W = 110;
const LANE_H = 34;
const RIGHT_PAD = 24;

/** The timeline figure; '' when the duration is unknown or no lane has data. */
export function timeline(r: any, duration: number, tokens: Token[]): string {
  if (duration <= 0) return '';
  const plotW = W - LABEL_W - RIGHT_PAD;
  const x = (t: number) => (LABEL_W + (Math.max(0, Math.min(duration, t)) / duration) * plotW).toFixed(1);
  const wid = (a: number, b: number) =>
    Math.max(1.5, ((Math.min(b, duration) - Math.max(0, a)) / duration) * plotW).toFixed(1);
  const lanes: Array<{ label: string; body: (y: number) => string }> = [];
  const pace = paceSeries(tokens, duration);
  if (pace.length) {
    const maxWpm = Math.max(220, ...pace.map((p) => p[1]));
    const y = (y0: number, v: number) => (y0 + LANE_H - 4 - (v / maxWpm) * (LANE_H - 8)).toFixed(1);
    const [low, high] = paceTargetWpm(r.language);
    lanes.push({
      label: 'Pace (WPM)',
      body: (y0) =>
        `<rect class="band" x="${LABEL_W}" y="${y(y0, high)}" width="${plotW}" height="${(((high - low) / maxWpm) * (LANE_H - 8)).toFixed(1)}"><title>target ${low}–${high} WPM</title></rect>` +
        `<polyline class="pace" points="${pace.map(([t, v]) => `${x(t)},${y(y0, v)}`).join(' ')}"/>`,
    });
  }
  if ((r.pauses?.time_series ?? []).length || (r.filler_words?.instances ?? []).length) {
    lanes.push({
      label: 'Pauses · fillers',
      body: (y0) =>
        (r.pauses?.time_series ?? [])
          .map(
            (p: any) =>
              `<rect class="seek pause${p.is_long ? ' long' : ''}" data-t="${p.start}" x="${x(p.start)}" y="${y0 + 6}" width="${wid(p.start, p.end)}" height="${LANE_H - 12}" tabindex="-1"><title>${p.is_long ? 'long ' : ''}pause ${fmt(p.duration)} s at ${clock(p.start)}</title></rect>`,
          )
          .join('') +
        (r.filler_words?.instances ?? [])
          .map(
            (f: any) =>
              `<rect class="seek filler" data-t="${f.start}" x="${x(f.start)}" y="${y0 + 2}" width="${wid(f.start, f.end)}" height="${LANE_H - 4}"><title>filler “${esc(f.word)}” at ${clock(f.start)}</title></rect>`,
          )
          .join(''),
    });
  }
  const quiet: any[] = r.delivery?.loudness?.quiet_stretches ?? [];
  const reps: any[] = r.delivery?.repetitions?.instances ?? [];
  if (quiet.length || reps.length) {
    lanes.push({
      label: 'Quiet · repeats',
      body: (y0) =>
        quiet
          .map(
            (q) =>
              `<rect class="seek quiet" data-t="${q.start}" x="${x(q.start)}" y="${y0 + 6}" width="${wid(q.start, q.end)}" height="${LANE_H - 12}"><title>quiet ${fmt(q.level_db)} dB, ${clock(q.start)}–${clock(q.end)}</title></rect>`,
          )
          .join('') +
        reps
          .map(
            (x0) =>
              `<rect class="seek repeat" data-t="${x0.start}" x="${x(x0.start)}" y="${y0 + 2}" width="${wid(x0.start, x0.end)}" height="${LANE_H - 4}"><title>repeated “${esc(x0.text)}” ×${x0.count} at ${clock(x0.start)}</title></rect>`,
          )
          .join(''),
    });
  }
  if (r.sentiment_words?.length) {
    lanes.push({
      label: 'Sentiment',
      body: (y0) =>
        `<line class="axis" x1="${LABEL_W}" x2="${W - RIGHT_PAD}" y1="${y0 + LANE_H / 2}" y2="${y0 + LANE_H / 2}"/>` +
        r.sentiment_words
          .map(
            (s: any) =>
              `<circle class="seek ${s.compound >= 0 ? 'positive' : 'negative'}" data-t="${s.time}" cx="${x(s.time)}" cy="${(y0 + LANE_H / 2 - s.compound * (LANE_H / 2 - 4)).toFixed(1)}" r="4"><title>“${esc(s.word)}” ${fmt(s.compound, 2)} at ${clock(s.time)}</title></circle>`,
          )
          .join(''),
    });
  }
  const samples: any[] = r.merged_visual_time_series ?? [];
  if (samples.length) {
    const segments =
      (pick: (f: any) => string | null, cls: (v: string) => string, title: (v: string) => string) =>
      (y0: number) => {
        let out = '';
        for (let i = 0; i < samples.length; i++) {
          const v = pick(samples[i]);
          if (!v) continue;
          const t0 = samples[i].time;
          const t1 =
            i + 1 < samples.length
              ? samples[i + 1].time
              : Math.min(duration, t0 + (i > 0 ? t0 - samples[i - 1].time : 0.5));
          out += `<rect class="seek ${cls(v)}" data-t="${t0}" x="${x(t0)}" y="${y0 + 6}" width="${wid(t0, t1)}" height="${LANE_H - 12}"><title>${esc(title(v))} at ${clock(t0)}</title></rect>`;
        }
        return out;
      };
    lanes.push({
      label: 'Gaze',
      body: segments(
        (f) =>
          f.gaze_direction === null || f.gaze_direction === undefined ? null : String(f.gaze_direction),
        (v) => (v === 'center' ? 'gaze-center' : 'gaze-away'),
        (v) => `gaze ${v}`,
      ),
    });
    lanes.push({
      label: 'Gestures',
      body: segments(
        (f) => [f.gesture_left, f.gesture_right].find((g: string) => g && g !== 'none') ?? null,
        (v) => (v === 'open_hand' ? 'gesture-open' : 'gesture-point'),
        (v) => v.replace(/_/g, ' '),
      ),
    });
  }
  if (!lanes.length) return '';
  const key = (cls: string, text: string) => `<span><span class="key ${cls}"></span>${text}</span>`;
  const legend: string[] = [];
  if (pace.length) legend.push(key('k-pace', 'pace'), key('k-band', 'target pace'));
  if ((r.pauses?.time_series ?? []).length) legend.push(key('k-pause', 'pause'), key('k-long', 'long pause'));
  if ((r.filler_words?.instances ?? []).length) legend.push(key('k-filler', 'filler'));
  if (quiet.length) legend.push(key('k-quiet', 'quiet stretch'));
  if (reps.length) legend.push(key('k-repeat', 'repetition'));
  if (r.sentiment_words?.length) legend.push(key('k-pos', 'positive'), key('k-neg', 'negative'));
  if (samples.length)
    legend.push(
      key('k-center', 'looking at camera'),
      key('k-away', 'looking away'),
      key('k-open', 'open hand'),
      key('k-point', 'point/pinch'),
    );
  const height = lanes.length * LANE_H + 22;
  let ticks = '';
  const step = [1, 2, 5, 10, 15, 30, 60, 120, 300].find((s) => duration / s <= 10) ?? 600;
  for (let t = 0; t <= duration + 1e-9; t += step)
    ticks += `<line class="tick" x1="${x(t)}" x2="${x(t)}" y1="0" y2="${height - 18}"/><text class="tick-label" x="${x(t)}" y="${height - 5}">${clock(t)}</text>`;
  const body = lanes
    .map(
      (lane, i) =>
        `<g class="lane"><text class="lane-label" x="4" y="${i * LANE_H + LANE_H / 2 + 4}">${esc(lane.label)}</text>${lane.body(i * LANE_H)}</g>`,
    )
    .join('');
  return `<figure class="timeline-figure"><figcaption>Timeline — click to seek the video</figcaption>
<svg id="timeline" class="timeline" viewBox="0 0 ${W} ${height}" role="img" aria-label="Timeline of pace, pauses, fillers, sentiment, gaze and gestures over ${clock(duration)}" data-duration="${duration}" data-x0="${LABEL_W}" data-x1="${W - RIGHT_PAD}" preserveAspectRatio="none">
${ticks}${body}<line id="playhead" class="playhead" x1="${LABEL_W}" x2="${LABEL_W}" y1="0" y2="${height - 18}"/></svg>
<p class="legend">${legend.join(' ')}</p>${deliveryLine(r.delivery)}</figure>`;
}
