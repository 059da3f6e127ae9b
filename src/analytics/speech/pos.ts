/**
 * @module analytics/speech/pos
 * Parts of speech with a real statistical tagger: wink-nlp's English "lite web" model
 * (~95 % accuracy on WSJ per its authors), which emits Universal POS tags directly, so no
 * Penn → UPOS mapping is needed. It is pure JavaScript with its model as a JS module, so it
 * bundles for workerd without `fs`. The model is built lazily on first use (~0.4 s) and kept.
 *
 * Only the six UPOS keys of the contract are reported. UD keeps PROPN apart from NOUN and AUX
 * apart from VERB; we follow UD (proper nouns and auxiliaries are not listed).
 */
import winkNLP, { type ItemToken } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import { POS_TAGS, type PosTag } from '../../contract/result';
import type { Token } from './types';
import { roundTime } from './round';

type Nlp = ReturnType<typeof winkNLP>;
let nlp: Nlp | undefined;
/** The tagger, built once per isolate/process on first call (not at import: keeps startup cheap). */
function tagger(): Nlp {
  return (nlp ??= winkNLP(model, ['pos']));
}

const SIX = new Set<string>(POS_TAGS);

/** A word of the tagged text: where it is in the text joined with spaces. */
export interface TaggedSpan {
  from: number;
  to: number;
  token: Token;
}

/**
 * Pure: the text a tagger reads (the words that are not hesitations, joined with spaces: the
 * hesitations would disturb their neighbours' tags) and each word's character span in it.
 */
export function taggingText(tokens: readonly Token[]): { text: string; spans: TaggedSpan[] } {
  const spans: TaggedSpan[] = [];
  let text = '';
  for (const t of tokens) {
    if (t.hesitation) continue;
    if (text) text += ' ';
    spans.push({ from: text.length, to: text.length + t.text.length, token: t });
    text += t.text;
  }
  return { text, spans };
}

/**
 * Pure: every token's tag (same order) from the tags of the tagger's parts of each word.
 * Hesitations are INTJ, as UD English-EWT tags "um"/"uh". A word the tagger splits ("don't" →
 * do n't, "l'homme" → l' homme) takes the first of its parts that is one of the six reported
 * tags (the last for hyphenated words, whose head is on the right).
 */
export function tagsFromParts(
  tokens: readonly Token[],
  spans: readonly TaggedSpan[],
  parts: ReadonlyMap<number, readonly string[]>,
): string[] {
  const tags: string[] = tokens.map((t) => (t.hesitation ? 'INTJ' : 'X'));
  for (const { token } of spans) {
    const list = parts.get(token.index) ?? [];
    const ordered = token.norm.includes('-') ? [...list].reverse() : list;
    tags[token.index] = ordered.find((p) => SIX.has(p)) ?? ordered[0] ?? 'X';
  }
  return tags;
}

/**
 * The token index of each part the tagger found, read in text order: `at(start)` for a part that
 * starts at character `start` (parts never go back). Parts without text of their own (French
 * "l'homme" → "l'" and an empty "homme" at the word's end) count to the word they end. One pass
 * over the spans for the whole text.
 */
export function spanCursor(spans: readonly TaggedSpan[]): (start: number) => number | undefined {
  let w = 0;
  return (start) => {
    while (w < spans.length && spans[w].to < start) w++;
    return w < spans.length && start >= spans[w].from ? spans[w].token.index : undefined;
  };
}

/** Universal POS tag of every English token (same order), tagging the transcript as one text. */
export function tagTokens(tokens: readonly Token[]): string[] {
  const { text, spans } = taggingText(tokens);
  const parts = new Map<number, string[]>();
  if (spans.length === 0) return tagsFromParts(tokens, spans, parts);

  const n = tagger();
  const doc = n.readDoc(text);
  const at = spanCursor(spans);
  let pos = 0;
  doc.tokens().each((tk: ItemToken) => {
    pos += String(tk.out(n.its.precedingSpaces)).length;
    const idx = at(pos);
    pos += String(tk.out(n.its.value)).length;
    if (idx === undefined) return;
    parts.set(idx, [...(parts.get(idx) ?? []), String(tk.out(n.its.pos))]);
  });
  return tagsFromParts(tokens, spans, parts);
}

/** One contract `pos` entry: a lowercase word form and every time it was said with that tag. */
export interface PosEntry {
  word: string;
  timestamps: Array<{ start: number; end: number }>;
}

/**
 * Groups tokens by reported tag and word form (lowercase, punctuation stripped), entries in
 * order of first occurrence. Tokens in `interjections` (single-word discourse fillers such as
 * a filler "like") are reported as INTJ, as UD tags discourse particles.
 * All six keys are always present.
 */
export function buildPos(
  tokens: readonly Token[],
  tags: readonly string[],
  interjections: ReadonlySet<number> = new Set(),
): Record<PosTag, PosEntry[]> {
  const out = Object.fromEntries(POS_TAGS.map((t) => [t, [] as PosEntry[]])) as Record<PosTag, PosEntry[]>;
  const index = new Map<string, PosEntry>();
  for (const t of tokens) {
    const tag = interjections.has(t.index) ? 'INTJ' : tags[t.index];
    if (!SIX.has(tag)) continue;
    const key = `${tag}\u0000${t.norm}`;
    let entry = index.get(key);
    if (!entry) {
      entry = { word: t.norm, timestamps: [] };
      index.set(key, entry);
      out[tag as PosTag].push(entry);
    }
    entry.timestamps.push({ start: roundTime(t.start), end: roundTime(t.end) });
  }
  return out;
}
