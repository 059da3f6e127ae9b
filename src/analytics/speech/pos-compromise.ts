/**
 * @module analytics/speech/pos-compromise
 * Parts of speech of German, French and Spanish: the compromise project's rule-based taggers for
 * those languages (de-compromise, fr-compromise, es-compromise; MIT, pure JavaScript, one
 * self-contained build each, so they bundle for workerd), their tags mapped to Universal
 * Dependencies, with the closed word classes (pos-closed-classes) taking precedence. Less
 * accurate than the English tagger: the result says so in `warnings` (languages.ts), and
 * `bench/speech/pos.ts` measures each against a Universal Dependencies treebank.
 */
import { de, es, fr } from './compromise-taggers.js';
import { closedClassTag } from './pos-closed-classes';
import { spanCursor, taggingText, tagsFromParts } from './pos';
import type { Token } from './types';

type Tagger = (text: string) => { json(options: { offset: true }): unknown };

/** The languages with a compromise tagger, by ISO 639-1 code. */
const TAGGERS: Readonly<Record<string, Tagger>> = { de, es, fr };

/** What the tagger answers per sentence (the fields read here). */
interface Term {
  text: string;
  /** The word a contraction's part stands for ("qu'il" → "que" and "il"). */
  implicit?: string;
  tags: string[];
  offset: { start: number };
}

/**
 * Pure: the Universal Dependencies tag of a compromise term's tags. Pronoun before Noun (the
 * taggers mark pronouns as both), auxiliaries and copulas apart from verbs (as UD does).
 * @example uposOfCompromise(['Noun', 'Pronoun']) // 'PRON'
 */
export function uposOfCompromise(tags: readonly string[]): string {
  const has = (t: string) => tags.includes(t);
  if (has('Pronoun') || has('Possessive')) return 'PRON';
  if (has('ProperNoun')) return 'PROPN';
  if (has('Copula') || has('Auxiliary')) return 'AUX';
  if (has('Verb')) return 'VERB';
  if (has('Adjective')) return 'ADJ';
  if (has('Adverb') || has('Negative')) return 'ADV';
  if (has('Preposition')) return 'ADP';
  if (has('Determiner')) return 'DET';
  if (has('Conjunction')) return 'CCONJ';
  if (has('Expression') || has('Interjection')) return 'INTJ';
  if (has('Value') || has('Cardinal')) return 'NUM';
  if (has('Noun') || has('Date')) return 'NOUN';
  return 'X';
}

/** True when `language` has a tagger here. */
export function hasCompromiseTagger(language: string): boolean {
  return Object.hasOwn(TAGGERS, language);
}

/**
 * Universal POS tag of every token (same order) in `language` (one of `hasCompromiseTagger`),
 * tagging the transcript as one text so the tagger sees context.
 */
export function tagTokensWithCompromise(tokens: readonly Token[], language: string): string[] {
  const { text, spans } = taggingText(tokens);
  const parts = new Map<number, string[]>();
  const nlp = TAGGERS[language];
  if (spans.length > 0 && nlp) {
    const at = spanCursor(spans);
    for (const sentence of nlp(text).json({ offset: true }) as Array<{ terms: Term[] }>)
      for (const term of sentence.terms) {
        const idx = at(term.offset.start);
        if (idx === undefined) continue;
        const word = (term.implicit || term.text).toLowerCase();
        const tag = closedClassTag(language, word) ?? uposOfCompromise(term.tags);
        parts.set(idx, [...(parts.get(idx) ?? []), tag]);
      }
  }
  return tagsFromParts(tokens, spans, parts);
}
