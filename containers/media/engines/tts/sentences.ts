/**
 * @module containers/media/engines/tts/sentences
 * Splits normalised text into the units a neural voice synthesises one at a time (sentences,
 * long ones cut at clause punctuation), each with the silence that follows it. Synthesising
 * sentence by sentence keeps memory bounded for long descriptions and lets the pauses follow
 * the punctuation instead of the model's own (short, even) sentence gaps. Pure.
 */

export interface SpeechChunk {
  /** Text of one sentence (or part of a long one), ending in its punctuation. */
  text: string;
  /** Silence after it, seconds (0 after the last chunk). */
  pauseAfterSec: number;
}

export interface SplitOptions {
  /** Longest chunk in characters; longer sentences are cut at a clause mark, else a space. Default 300. */
  maxChars?: number;
}

/** Silence after a sentence, by its final mark: a question or an ellipsis invites a longer breath. */
export const PAUSE_AFTER_SEC: Record<string, number> = {
  '.': 0.35,
  '!': 0.35,
  '?': 0.4,
  '...': 0.55,
  ':': 0.3,
  ';': 0.25,
  ',': 0.1,
  '': 0.1,
};
/** Silence between paragraphs (blank line or line break), seconds. */
export const PARAGRAPH_PAUSE_SEC = 0.7;

const SENTENCE_RE = /[^.!?]+(?:\.\.\.|[.!?]+)?["')\]]*/g;

/**
 * Pure: sentences with their pauses.
 * @example splitSpeech('Hi there. How are you?') // [{text:'Hi there.', pauseAfterSec:0.35}, {text:'How are you?', pauseAfterSec:0}]
 */
export function splitSpeech(text: string, { maxChars = 300 }: SplitOptions = {}): SpeechChunk[] {
  const chunks: SpeechChunk[] = [];
  const paragraphs = text
    .split(/\n+/)
    .map((p) => p.trim())
    .filter(Boolean);
  for (const paragraph of paragraphs) {
    for (const m of paragraph.match(SENTENCE_RE) ?? []) {
      const sentence = m.trim();
      if (!/[\p{L}\p{N}]/u.test(sentence)) continue; // stray punctuation says nothing
      const mark = /(\.\.\.|[.!?;:,])["')\]]*$/.exec(sentence)?.[1] ?? '';
      const parts = cut(sentence, maxChars);
      parts.forEach((part, i) =>
        chunks.push({
          text: part,
          pauseAfterSec:
            i < parts.length - 1
              ? PAUSE_AFTER_SEC[/[,;:]$/.exec(part)?.[0] ?? '']
              : (PAUSE_AFTER_SEC[mark] ?? 0.35),
        }),
      );
    }
    if (chunks.length) chunks[chunks.length - 1].pauseAfterSec = PARAGRAPH_PAUSE_SEC;
  }
  if (chunks.length) chunks[chunks.length - 1].pauseAfterSec = 0;
  return chunks;
}

/** Cuts a long sentence at the last clause mark (else space) before `maxChars`. */
function cut(sentence: string, maxChars: number): string[] {
  const out: string[] = [];
  let rest = sentence;
  while (rest.length > maxChars) {
    const head = rest.slice(0, maxChars);
    let at = Math.max(head.lastIndexOf(', '), head.lastIndexOf('; '), head.lastIndexOf(': '));
    if (at < maxChars / 3) at = head.lastIndexOf(' ');
    if (at <= 0) at = maxChars - 1;
    out.push(rest.slice(0, at + 1).trim());
    rest = rest.slice(at + 1).trim();
  }
  if (rest) out.push(rest);
  return out;
}
