/**
 * @module web/results/align
 * The transcript's words with their times: the result's transcript text aligned with its timed
 * words (POS entries and filler instances), each token marked filler or with its sentiment.
 */

/** A word as matched against the timed words (lowercase, straight apostrophes, no edge punctuation). */
const norm = (w: string) =>
  w
    .toLowerCase()
    .replace(/’/g, "'")
    .replace(/^[^a-z0-9']+|[^a-z0-9']+$/g, '');

export interface Token {
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
export function alignTranscript(r: any): Token[] {
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
