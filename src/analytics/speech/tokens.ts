/**
 * @module analytics/speech/tokens
 * Turns engine words into clean {@link Token}s, independent of the recogniser's habits:
 * Whisper writes `Um,` with casing and punctuation, pocketsphinx writes `++UM++`, `[uh]`,
 * `the(2)` and `<sil>`. Non-speech markers (`<sil>`, `[NOISE]`, `[BLANK_AUDIO]`, `(laughs)`)
 * are dropped; bracketed hesitations become plain hesitation words.
 */
import type { TimedWord } from '../../contract/media';
import type { Token } from './types';

import { isHesitationIn } from './languages';

/** Engine markup around a token: `++UM++`, `[uh]`, `<sil>`, `(laughs)`, `*coughs*`. */
const MARKUP_RE = /^(?:\+\+(.*)\+\+|\+(.*)\+|\[(.*)\]|<(.*)>|\((.*)\)|\*(.*)\*)$/;
/** pocketsphinx alternative-pronunciation suffix: `the(2)`. */
const ALT_PRON_RE = /\(\d+\)$/;
const EDGE_PUNCT_RE = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;
const CLAUSE_END_RE = /(?:[,;:.!?…—–]|\s-|--)["'”’)\]]*$/;
const SENTENCE_END_RE = /[.!?…]["'”’)\]]*$/;

/**
 * True when `norm` (lowercase, no punctuation) is a hesitation sound of `language` (default
 * English: um/umm/uhm, uh/uhh, er/err/erm, ehm, ah/ahh/ahm, hm/hmm, mm/mmm, Clark & Fox Tree
 * 2002; other languages: languages.ts). Backchannels with meaning (mhm, mm-hmm, uh-huh = "yes")
 * are deliberately not matched.
 */
export function isHesitation(norm: string, language?: string | null): boolean {
  return isHesitationIn(norm, language);
}

/** Lowercase, typographic apostrophes unified, edge punctuation stripped. */
export function normalizeWord(raw: string): string {
  return raw.toLowerCase().replace(/[’‘`]/g, "'").replace(EDGE_PUNCT_RE, '');
}

const finite = (x: number): boolean => typeof x === 'number' && Number.isFinite(x);

/**
 * Cleans, time-sorts and indexes the recogniser's words. Words with non-finite times are
 * dropped; an `end` before `start` is clamped to `start`; confidence is clamped to 0..1.
 */
export function buildTokens(words: readonly TimedWord[], language?: string | null): Token[] {
  const out: Omit<Token, 'index'>[] = [];
  for (const w of words) {
    if (!w || typeof w.word !== 'string' || !finite(w.start) || !finite(w.end)) continue;
    let raw = w.word.trim().replace(ALT_PRON_RE, '');
    const markup = MARKUP_RE.exec(raw);
    if (markup) {
      const inner = normalizeWord(markup.slice(1).find((g) => g !== undefined) ?? '');
      // Bracketed hesitations are speech; every other bracketed token is noise or silence.
      if (!isHesitation(inner, language)) continue;
      raw = inner;
    }
    const norm = normalizeWord(raw);
    if (!norm) continue;
    const confidence = finite(w.confidence) ? Math.min(1, Math.max(0, w.confidence)) : 0;
    out.push({
      text: raw,
      norm,
      start: w.start,
      end: Math.max(w.start, w.end),
      confidence,
      hesitation: isHesitation(norm, language),
      clauseEnd: CLAUSE_END_RE.test(raw),
      sentenceEnd: SENTENCE_END_RE.test(raw),
    });
  }
  out.sort((a, b) => a.start - b.start || a.end - b.end);
  return out.map((t, index) => ({ ...t, index }));
}

/** Tokens that are words in the lexical sense (everything but hesitation sounds). */
export function lexicalTokens(tokens: readonly Token[]): Token[] {
  return tokens.filter((t) => !t.hesitation);
}
