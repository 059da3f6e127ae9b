/**
 * @module web/results/transcript
 * The transcript section: every word a seek target, fillers marked, sentiment coloured, pauses
 * placed between the words where they fell.
 */
import type { Token } from './align.js';
import { clock, esc, fmt } from './format.js';

/** The transcript section; '' when the result has no transcript. */
export function transcript(r: any, tokens: Token[]): string {
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
