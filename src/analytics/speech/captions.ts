/**
 * @module analytics/speech/captions
 * Caption cues from a transcript's word times, and their WebVTT and SubRip files. A cue holds at
 * most two lines of 42 characters and 7 seconds (the limits of the common broadcast and streaming
 * caption guidelines, e.g. the BBC's and Netflix's English ones), and a new cue starts after a
 * sentence end and after a pause, so a caption never stays up over a silence or joins two sentences.
 * Cue times are the words' own: a cue starts at its first word's start and ends at its last word's end.
 */
import type { TimedWord } from '../../contract/media';
import { wordSeparator } from './languages';
import { buildTokens } from './tokens';
import type { Token } from './types';

export const CAPTION_MAX_LINE_CHARS = 42;
export const CAPTION_MAX_LINES = 2;
export const CAPTION_MAX_SEC = 7;
/**
 * A silence at least this long ends a cue: longer than the gaps inside a phrase (medium pauses are
 * 0.2–1 s, `pauses.ts`), so a phrase is not cut at every breath, while a caption is not left on
 * screen across a clear stop.
 */
export const CAPTION_PAUSE_SEC = 0.6;

export interface Cue {
  start: number;
  end: number;
  lines: string[];
}

export interface CueOptions {
  maxLineChars?: number;
  maxLines?: number;
  maxSec?: number;
  pauseSec?: number;
  /** The words' language: Chinese, Japanese, Thai… lines join their words without spaces. */
  language?: string | null;
}

/**
 * Pure: the words as at most `maxLines` lines of at most `maxLineChars`, balanced (the longer line
 * as short as it can be); one line when they fit on one. Null when they do not fit. A single word
 * longer than a line is a line of its own (it cannot be broken).
 */
export function wrapCaption(
  words: readonly string[],
  maxLineChars = CAPTION_MAX_LINE_CHARS,
  maxLines = CAPTION_MAX_LINES,
  separator = ' ',
): string[] | null {
  const one = words.join(separator);
  if (one.length <= maxLineChars || words.length === 1) return [one];
  if (maxLines < 2) return null;
  let best: string[] | null = null;
  for (let i = 1; i < words.length; i++) {
    const a = words.slice(0, i).join(separator);
    const b = words.slice(i).join(separator);
    if (a.length > maxLineChars || b.length > maxLineChars) continue;
    if (!best || Math.max(a.length, b.length) < Math.max(best[0].length, best[1].length)) best = [a, b];
  }
  return best;
}

/**
 * Pure: the cues of a transcript's words (the recogniser's words as the transcript cleans them:
 * engine markup and silences dropped, punctuation kept). Cues follow each other in time and never
 * overlap (the words do not).
 * @example
 * buildCues([{ word: 'Hello.', start: 0, end: 0.4, confidence: 1 }, { word: 'Bye.', start: 0.5, end: 0.8, confidence: 1 }])
 * // [{ start: 0, end: 0.4, lines: ['Hello.'] }, { start: 0.5, end: 0.8, lines: ['Bye.'] }]
 */
export function buildCues(words: readonly TimedWord[], opts: CueOptions = {}): Cue[] {
  const maxLineChars = opts.maxLineChars ?? CAPTION_MAX_LINE_CHARS;
  const maxLines = opts.maxLines ?? CAPTION_MAX_LINES;
  const maxSec = opts.maxSec ?? CAPTION_MAX_SEC;
  const pauseSec = opts.pauseSec ?? CAPTION_PAUSE_SEC;
  const separator = wordSeparator(opts.language);
  const lines = (group: readonly Token[]) =>
    wrapCaption(
      group.map((t) => t.text),
      maxLineChars,
      maxLines,
      separator,
    );
  const fits = (group: readonly Token[]) =>
    group[group.length - 1].end - group[0].start <= maxSec && lines(group) !== null;

  const cues: Cue[] = [];
  const emit = (group: readonly Token[]) => {
    if (group.length === 0) return;
    cues.push({
      start: group[0].start,
      end: group[group.length - 1].end,
      lines: lines(group) ?? [group.map((t) => t.text).join(separator)],
    });
  };

  let current: Token[] = [];
  for (const token of buildTokens(words)) {
    const prev = current[current.length - 1];
    if (prev && (prev.sentenceEnd || token.start - prev.end >= pauseSec)) {
      emit(current);
      current = [];
    } else if (prev && !fits([...current, token])) {
      // Full: end the cue at its last clause end (a comma, a dash) when it has one, and carry the
      // words after it into the next cue, which the new word must then fit beside.
      let cut = current.length - 1;
      while (cut > 0 && !current[cut - 1].clauseEnd) cut--;
      const carried = cut > 0 && fits([...current.slice(cut), token]) ? current.slice(cut) : [];
      emit(current.slice(0, current.length - carried.length));
      current = carried;
    }
    current.push(token);
  }
  emit(current);
  return cues;
}

/** Pure: `hh:mm:ss.mmm` (WebVTT) or `hh:mm:ss,mmm` (SubRip). */
export function captionTime(sec: number, separator: '.' | ','): string {
  const ms = Math.max(0, Math.round(sec * 1000));
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
}

/** Pure: a WebVTT file; `language` (BCP 47) in its header. */
export function toWebVtt(cues: readonly Cue[], language: string): string {
  const blocks = cues.map(
    (c, i) => `${i + 1}\n${captionTime(c.start, '.')} --> ${captionTime(c.end, '.')}\n${c.lines.join('\n')}`,
  );
  return [`WEBVTT\nLanguage: ${language}`, ...blocks].join('\n\n') + '\n';
}

/** Pure: a SubRip (.srt) file. */
export function toSrt(cues: readonly Cue[]): string {
  return cues
    .map(
      (c, i) =>
        `${i + 1}\n${captionTime(c.start, ',')} --> ${captionTime(c.end, ',')}\n${c.lines.join('\n')}\n`,
    )
    .join('\n');
}
