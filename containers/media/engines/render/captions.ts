/**
 * @module containers/media/engines/render/captions
 * WebVTT captions for the description text. Cue times come from forced alignment when an
 * aligner is available (words with times), else the text is split evenly over the duration,
 * weighted by word length (long words take longer to say).
 */

export interface CaptionWord {
  word: string;
  start: number;
  end: number;
}

/** Words per cue: short enough to read at a glance. */
export const WORDS_PER_CUE = 7;

/** Pure: spreads the words of `text` over `[0, durationSec]` in proportion to their length. */
export function evenWordTimes(text: string, durationSec: number): CaptionWord[] {
  const words = text.split(/\s+/).filter(Boolean);
  const weights = words.map((w) => w.length + 1);
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  let t = 0;
  return words.map((word, i) => {
    const d = (weights[i] / total) * durationSec;
    const cue = { word, start: t, end: t + d };
    t += d;
    return cue;
  });
}

/** Pure: groups timed words into cues and renders a WebVTT document. */
export function toWebVtt(words: CaptionWord[], wordsPerCue = WORDS_PER_CUE): string {
  const lines = ['WEBVTT', ''];
  for (let i = 0; i < words.length; i += wordsPerCue) {
    const group = words.slice(i, i + wordsPerCue);
    const start = group[0].start;
    const end = Math.max(group.at(-1)!.end, start + 0.2);
    lines.push(`${vttTime(start)} --> ${vttTime(end)}`, group.map((w) => w.word).join(' '), '');
  }
  return lines.join('\n');
}

function vttTime(sec: number): string {
  const ms = Math.max(0, Math.round(sec * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}
