/**
 * @module web/results/view
 * The analysis view as a pure function: `renderResults(result) → HTML string` (summary cards
 * against coaching targets, an SVG timeline, the transcript with fillers and pauses marked,
 * the visual summaries). It renders whatever sections are present. The page's script bundles
 * it (`npm run build:web`), so the browser runs the very modules the tests run.
 */
import { alignTranscript } from './align.js';
import { cards } from './cards.js';
import { esc, num } from './format.js';
import { timeline } from './timeline.js';
import { transcript } from './transcript.js';
import { visual } from './visual.js';

/** Options of `renderResults`. */
export interface ResultsViewOptions {
  /** Media duration when the result lacks `summary.duration_sec` (e.g. from the player). */
  durationSec?: number;
}

/** The media's duration: the summary's, else the caller's, else the end of the last timed event. */
function durationOf(r: any, fallback?: number): number {
  const candidates = [num(r.summary?.duration_sec), fallback ?? null];
  const last = (r.merged_visual_time_series ?? []).at?.(-1)?.time;
  for (const c of candidates) if (c && c > 0) return c;
  let max = num(last) ?? 0;
  for (const p of r.pauses?.time_series ?? []) max = Math.max(max, p.end);
  for (const f of r.filler_words?.instances ?? []) max = Math.max(max, f.end);
  return max;
}

/**
 * The whole analysis view; `result` is the status response's `result` (any shape: absent
 * sections are left out).
 * @example
 * renderResults({ summary: { duration_sec: 3 } }); // cards with the duration, raw JSON
 */
export function renderResults(result: any, options: ResultsViewOptions = {}): string {
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
