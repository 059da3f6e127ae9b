/**
 * @module web/results
 * The analysis view as a pure function: `renderResults(result) → HTML string` (summary cards
 * against coaching targets, an SVG timeline, the transcript with fillers and pauses marked,
 * the visual summaries). It renders whatever sections are present.
 *
 * `createResultsRenderer` is self-contained on purpose (no imports, no outer references):
 * the page embeds its source text, so the browser runs the very function the tests run.
 */

/** Options of `renderResults`. */
export interface RenderOptions {
  /** Media duration when the result lacks `summary.duration_sec` (e.g. from the player). */
  durationSec?: number;
}

/**
 * Builds the renderer. Everything it needs is defined inside it.
 * @example
 * const { renderResults } = createResultsRenderer();
 * element.innerHTML = renderResults(status.result);
 */
export function createResultsRenderer() {
  const TARGET_WPM_LOW = 130;
  const TARGET_WPM_HIGH = 160;
  const MAX_FILLERS_PER_MIN = 3;
  const MAX_LONG_PAUSES_PER_MIN = 2;
  const MIN_GAZE_AT_CAMERA = 0.6;
  const W = 1000;
  const LABEL_W = 110;
  const LANE_H = 34;
  const RIGHT_PAD = 24;

  const esc = (s: unknown) =>
    String(s ?? '').replace(
      /[&<>"']/g,
      (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
    );
  const num = (v: unknown): number | null => (typeof v === 'number' && isFinite(v) ? v : null);
  const fmt = (v: unknown, d = 1) => (num(v) === null ? '–' : (v as number).toFixed(d));
  const clock = (sec: number) => `${Math.floor(sec / 60)}:${String(Math.floor(sec % 60)).padStart(2, '0')}`;
  const norm = (w: string) =>
    w
      .toLowerCase()
      .replace(/’/g, "'")
      .replace(/^[^a-z0-9']+|[^a-z0-9']+$/g, '');

  interface Token {
    text: string;
    start: number | null;
    end: number | null;
    filler: boolean;
    sentiment: number | null;
  }
  interface Timed {
    word: string;
    start: number;
    end: number;
    filler: boolean;
  }

  /** Every timed word the result carries: POS entries and filler instances (multi-word split). */
  function timedWords(r: any): Timed[] {
    const out: Timed[] = [];
    for (const tag of Object.keys(r.pos ?? {})) {
      for (const e of r.pos[tag] ?? [])
        for (const t of e.timestamps ?? [])
          out.push({ word: norm(e.word ?? ''), start: t.start, end: t.end, filler: false });
    }
    for (const f of r.filler_words?.instances ?? []) {
      const parts = String(f.word ?? '')
        .split(/\s+/)
        .filter(Boolean);
      const step = (f.end - f.start) / Math.max(1, parts.length);
      parts.forEach((p, i) =>
        out.push({ word: norm(p), start: f.start + i * step, end: f.start + (i + 1) * step, filler: true }),
      );
    }
    out.sort((a, b) => a.start - b.start || (a.filler ? -1 : 1));
    // POS and fillers can both list an interjection at the same time: keep one, as filler.
    return out.filter((w, i) => !(i > 0 && out[i - 1].start === w.start && out[i - 1].word === w.word));
  }

  /** Aligns the transcript's tokens with the timed words in order; untimed tokens take their neighbour's time. */
  function alignTranscript(r: any): Token[] {
    const timed = timedWords(r);
    const sentiment = new Map<string, number>();
    for (const s of r.sentiment_words ?? [])
      sentiment.set(`${norm(s.word)}@${Number(s.time).toFixed(2)}`, s.compound);
    const words = String(r.transcript ?? '')
      .split(/\s+/)
      .filter(Boolean);
    const source = words.length ? words : timed.map((t) => t.word);
    const tokens: Token[] = [];
    let j = 0;
    for (const text of source) {
      const key = norm(text);
      let match = -1;
      for (let k = j; k < Math.min(timed.length, j + 8); k++) {
        if (timed[k].word === key) {
          match = k;
          break;
        }
      }
      if (match >= 0) {
        const t = timed[match];
        j = match + 1;
        const s = sentiment.get(`${key}@${t.start.toFixed(2)}`);
        tokens.push({
          text,
          start: t.start,
          end: t.end,
          filler: t.filler,
          sentiment: s === undefined ? null : s,
        });
      } else {
        tokens.push({ text, start: null, end: null, filler: false, sentiment: null });
      }
    }
    // Untimed tokens (determiners, pronouns, auxiliaries are not in `pos`) sit between neighbours.
    let prevEnd = 0;
    for (let i = 0; i < tokens.length; i++) {
      if (tokens[i].start !== null) {
        prevEnd = tokens[i].end as number;
        continue;
      }
      let k = i;
      while (k < tokens.length && tokens[k].start === null) k++;
      const next = k < tokens.length ? (tokens[k].start as number) : prevEnd;
      const span = Math.max(0, next - prevEnd) / (k - i + 1);
      for (let m = i; m < k; m++) {
        tokens[m].start = prevEnd + span * (m - i + 1) - span / 2;
        tokens[m].end = tokens[m].start! + span / 2;
      }
      i = k - 1;
    }
    return tokens;
  }

  function durationOf(r: any, fallback?: number): number {
    const candidates = [num(r.summary?.duration_sec), fallback ?? null];
    const last = (r.merged_visual_time_series ?? []).at?.(-1)?.time;
    for (const c of candidates) if (c && c > 0) return c;
    let max = num(last) ?? 0;
    for (const p of r.pauses?.time_series ?? []) max = Math.max(max, p.end);
    for (const f of r.filler_words?.instances ?? []) max = Math.max(max, f.end);
    return max;
  }

  type Verdict = 'good' | 'warn' | 'info';
  const card = (id: string, label: string, value: string, target: string, verdict: Verdict, hint = '') =>
    `<li class="card ${verdict}" id="card-${id}"><span class="card-label">${esc(label)}</span><span class="card-value">${value}</span>` +
    `<span class="card-target">${verdict === 'good' ? '<span aria-hidden="true">✓ </span>' : verdict === 'warn' ? '<span aria-hidden="true">! </span>' : ''}${esc(target)}</span>${hint ? `<span class="card-hint">${esc(hint)}</span>` : ''}</li>`;

  /** Cards of the `delivery` extension: pitch, loudness, repetitions (none without it). */
  function deliveryCards(d: any): string[] {
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
  function deliveryLine(d: any): string {
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

  function cards(r: any, duration: number, tokens: Token[]): string {
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
    if (wpm !== null) {
      const ok = wpm >= TARGET_WPM_LOW && wpm <= TARGET_WPM_HIGH;
      out.push(
        card(
          'pace',
          'Pace',
          `${fmt(wpm, 0)} <small>WPM</small>`,
          `target ${TARGET_WPM_LOW}–${TARGET_WPM_HIGH}`,
          wpm === 0 ? 'info' : ok ? 'good' : 'warn',
          wpm === 0
            ? 'no speech recognised'
            : wpm < TARGET_WPM_LOW
              ? 'a little slow'
              : wpm > TARGET_WPM_HIGH
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

  /** Local pace: words starting in a sliding window, per minute. */
  function paceSeries(tokens: Token[], duration: number): Array<[number, number]> {
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

  function timeline(r: any, duration: number, tokens: Token[]): string {
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
      lanes.push({
        label: 'Pace (WPM)',
        body: (y0) =>
          `<rect class="band" x="${LABEL_W}" y="${y(y0, TARGET_WPM_HIGH)}" width="${plotW}" height="${(((TARGET_WPM_HIGH - TARGET_WPM_LOW) / maxWpm) * (LANE_H - 8)).toFixed(1)}"><title>target ${TARGET_WPM_LOW}–${TARGET_WPM_HIGH} WPM</title></rect>` +
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
    if ((r.pauses?.time_series ?? []).length)
      legend.push(key('k-pause', 'pause'), key('k-long', 'long pause'));
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

  function transcript(r: any, tokens: Token[]): string {
    if (r.transcript === undefined && !tokens.length) return '';
    if (!tokens.length)
      return `<section class="transcript-section" aria-labelledby="h-transcript"><h3 id="h-transcript">Transcript</h3><p class="muted">No speech was recognised.</p></section>`;
    const pauses: any[] = [...(r.pauses?.time_series ?? [])].sort((a, b) => a.start - b.start);
    let p = 0;
    const parts: string[] = [];
    for (const t of tokens) {
      while (p < pauses.length && pauses[p].start <= (t.start as number)) {
        const q = pauses[p++];
        parts.push(
          `<button type="button" class="seek pause-mark${q.is_long ? ' long' : ''}" data-t="${q.start}" aria-label="${q.is_long ? 'long ' : ''}pause ${fmt(q.duration)} seconds at ${clock(q.start)}">‖ ${fmt(q.duration)} s</button>`,
        );
      }
      const cls = ['w', 'seek'];
      if (t.filler) cls.push('filler');
      if (t.sentiment !== null) cls.push(t.sentiment >= 0 ? 'positive' : 'negative');
      const title = t.filler ? 'filler word' : t.sentiment !== null ? `sentiment ${fmt(t.sentiment, 2)}` : '';
      const inner = esc(t.text);
      parts.push(
        `<span class="${cls.join(' ')}" data-t="${(t.start as number).toFixed(3)}" data-end="${(t.end as number).toFixed(3)}"${title ? ` title="${title}"` : ''}>${t.filler ? `<mark>${inner}</mark>` : inner}</span>`,
      );
    }
    while (p < pauses.length) {
      const q = pauses[p++];
      parts.push(
        `<button type="button" class="seek pause-mark${q.is_long ? ' long' : ''}" data-t="${q.start}" aria-label="pause ${fmt(q.duration)} seconds">‖ ${fmt(q.duration)} s</button>`,
      );
    }
    return `<section class="transcript-section" aria-labelledby="h-transcript"><h3 id="h-transcript">Transcript</h3>
<p class="legend"><mark>filler</mark> <span class="positive">positive</span> <span class="negative">negative</span> <span class="pause-mark">‖ pause</span> <span class="pause-mark long">‖ long pause</span> — click a word to jump there</p>
<p class="transcript" id="transcript">${parts.join(' ')}</p></section>`;
  }

  function visual(r: any): string {
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

  /**
   * The whole analysis view.
   */
  function renderResults(result: any, options: RenderOptions = {}): string {
    const r = result && typeof result === 'object' ? result : {};
    const duration = durationOf(r, options.durationSec);
    const tokens = r.transcript !== undefined || r.pos ? alignTranscript(r) : [];
    const warnings: string[] = Array.isArray(r.warnings) ? r.warnings : [];
    return `<div class="results">
${warnings.length ? `<div class="warnings" role="note"><strong>Note</strong><ul>${warnings.map((w) => `<li>${esc(w)}</li>`).join('')}</ul></div>` : ''}
${cards(r, duration, tokens)}
${timeline(r, duration, tokens)}
${transcript(r, tokens)}
${visual(r)}
<details class="raw"><summary>Raw result (JSON)</summary><pre>${esc(JSON.stringify(r, null, 2))}</pre></details>
</div>`;
  }

  /**
   * The processing report as lines of text: what was applied, the output, lip sync, captions,
   * the voice that spoke synthesized speech, then the notes. Text only (the page sets textContent).
   */
  function processingReportItems(report: {
    options_applied: string[];
    output: { width: number; height: number; duration_sec: number; fit: string };
    lip_sync?: { mode: string; audio_shift_ms: number | null } | null;
    captions?: string | null;
    voice?: { engine: string; voice_id: string };
    notes: string[];
  }): string[] {
    const o = report.output;
    const items = [
      `Applied: ${report.options_applied.length ? report.options_applied.join(', ') : 'none'}`,
      `Output: ${o.width}×${o.height}, ${o.duration_sec.toFixed(2)} s (${o.fit})`,
    ];
    if (report.lip_sync)
      items.push(
        `Lip sync: ${report.lip_sync.mode}${report.lip_sync.audio_shift_ms !== null ? ` (${report.lip_sync.audio_shift_ms} ms)` : ''}`,
      );
    if (report.captions) items.push(`Captions timed by ${report.captions}`);
    if (report.voice) items.push(`Voice: ${report.voice.voice_id} (${report.voice.engine})`);
    return items.concat(report.notes);
  }

  return { renderResults, alignTranscript, paceSeries, processingReportItems };
}

/**
 * Renders a result to HTML (server, tests, or the page through the embedded renderer).
 * @example
 * renderResults({ summary: { duration_sec: 3 } }); // cards with the duration, raw JSON
 */
export function renderResults(result: unknown, options: RenderOptions = {}): string {
  return createResultsRenderer().renderResults(result, options);
}
