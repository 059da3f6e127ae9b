/**
 * @module bench/speech/score
 * Pure scoring for the per-language speech bench (`languages.ts`):
 * - `languageWords`: the words a WER counts, in any language: Unicode NFC, lowercase, apostrophes
 *   unified, punctuation stripped (letters and digits of every script kept, word-internal
 *   apostrophes and hyphens kept), whole numbers spelled out in the language (`spellNumbers`: "266"
 *   and "duzentos e sessenta e seis" are the same words said), hesitation sounds dropped (they are
 *   scored by the filler table, not the WER).
 * - `languageWer`: word edits over reference words after that normalisation.
 * - `HESITATIONS`: the non-lexical hesitation sounds per language (only sounds that are never a
 *   word of the language: "este", "tipo", "ben", "é" are words too, so they are not here).
 * - `matchFillers` (start within 150 ms, one-to-one, nearest first) and
 *   `matchFillersByOrder` (when the reference has no filler times: the longest common
 *   subsequence of the two word sequences decides which recognised hesitation is a reference
 *   one), and `inventedHesitations` for fluent clips.
 */
import { toCardinal as de } from 'n2words/de-DE';
import { toCardinal as en } from 'n2words/en-US';
import { toCardinal as es } from 'n2words/es-ES';
import { toCardinal as fr } from 'n2words/fr-FR';
import { toCardinal as it } from 'n2words/it-IT';
import { toCardinal as nl } from 'n2words/nl-NL';
import { toCardinal as pt } from 'n2words/pt-PT';
import { wordEdits } from './wer.js';

/**
 * Cardinal numbers in words per language (n2words, MIT). Portuguese is spelled as in Portugal,
 * which differs from Brazil's only at 16, 17 and 19.
 */
const CARDINALS: Readonly<Record<string, (n: number) => string>> = { de, en, es, fr, it, nl, pt };
/** Longer digit strings are codes or phone numbers, read digit by digit or not at all: left as written. */
const MAX_SPELLED_DIGITS = 9;

/** Start-time tolerance of a found filler (the gate), seconds. */
export const FILLER_TOLERANCE_SEC = 0.15;

/**
 * Hesitation sounds by ISO 639-1 language, lowercase. Sources: the transcription conventions of
 * the corpora the sets come from (SPPAS/CID "euh", PFC "euh"), the per-language list
 * (de "äh/ähm", es "eh/em", fr "euh", it "ehm/eh", nl "eh/uh", pt "hum") and the English
 * pattern of `src/analytics/speech/tokens.ts`.
 */
export const HESITATIONS: Readonly<Record<string, readonly string[]>> = {
  en: ['um', 'umm', 'uh', 'uhm', 'er', 'erm', 'hm', 'hmm', 'mm', 'mhm'],
  de: ['äh', 'ähm', 'öh', 'öhm', 'hm', 'hmm', 'mhm'],
  es: ['eh', 'em', 'ehm', 'mm', 'hmm'],
  fr: ['euh', 'heu', 'hum', 'hm', 'hmm'],
  it: ['eh', 'ehm', 'em', 'mm', 'hmm'],
  nl: ['eh', 'uh', 'ehm', 'uhm', 'hm'],
  pt: ['hum', 'hm', 'ahn', 'éh', 'mm'],
};

/** The English pattern of the analytics (`src/analytics/speech/tokens.ts`). */
const ENGLISH_RE = /^(?:u+h*m+|u+h+|e+r+m*|e+h+m+|a+h+m*|h+m+|m{2,})$/;
/** Sounds that are a hesitation in every language of the sets: "uh", "um(m)", "uhm", "hm(m)", "mm". */
const UNIVERSAL_RE = /^(?:u+h+m*|u+m+|h+m+|m{2,})$/;
/** Words of a language that the sounds above would take: German "um" (around), Portuguese "um" (one). */
const WORDS: Readonly<Record<string, readonly string[]>> = { de: ['um'], pt: ['um'] };

/** True when `word` (any case, any punctuation) is a hesitation sound in `language` or in English. */
export function isHesitationIn(word: string, language: string): boolean {
  const w = normaliseToken(word);
  if (!w) return false;
  if ((HESITATIONS[language] ?? []).includes(w)) return true;
  if ((WORDS[language] ?? []).includes(w)) return false;
  // English sounds only where they cannot be a word: "er" is German for "he", "em" Portuguese for "in".
  return language === 'en' ? ENGLISH_RE.test(w) : UNIVERSAL_RE.test(w);
}

/** NFC, lowercase, typographic apostrophes unified, edge punctuation stripped. */
function normaliseToken(raw: string): string {
  return raw
    .normalize('NFC')
    .toLowerCase()
    .replace(/[’‘`´]/g, "'")
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
}

/**
 * Pure: the words a WER counts (see the module comment). `language` picks the hesitation set.
 * @example languageWords("Qu’il a dit: euh, 1989!", 'fr') // ["qu'il", 'a', 'dit', '1989']
 */
export function languageWords(text: string, language: string): string[] {
  return spellNumbers(text, language)
    .normalize('NFC')
    .toLowerCase()
    .replace(/[’‘`´]/g, "'")
    .replace(/[^\p{L}\p{M}\p{N}'\-\s]+/gu, ' ')
    .split(/\s+/)
    .map((w) => w.replace(/^['-]+|['-]+$/g, ''))
    .filter((w) => w && !isHesitationIn(w, language));
}

/**
 * Pure: every whole number written in digits ("266", "1 989" is two) spelled out in the language's
 * words, lowercase; languages without a speller, and longer digit strings, are left as written.
 * @example spellNumbers('Nestor Pestana 266', 'pt') // 'Nestor Pestana duzentos e sessenta e seis'
 */
export function spellNumbers(text: string, language: string): string {
  const spell = CARDINALS[language];
  if (!spell) return text;
  return text.replace(/(?<![\p{L}\p{N}]|\d[.,])\d+(?![\p{L}\p{N}]|[.,]\d)/gu, (digits) =>
    digits.length > MAX_SPELLED_DIGITS ? digits : spell(Number(digits)).toLowerCase(),
  );
}

/** Pure: word edits and reference length after `languageWords`; `wer` is edits / reference words. */
export function languageWer(reference: string, hypothesis: string, language: string) {
  const ref = languageWords(reference, language);
  const edits = wordEdits(ref, languageWords(hypothesis, language));
  return { edits, refWords: ref.length, wer: ref.length ? edits / ref.length : 0 };
}

export interface FillerMatch {
  /** Reference hesitations matched by a recognised one. */
  tp: number;
  /** Recognised hesitations that match none. */
  fp: number;
  /** Reference hesitations not found. */
  fn: number;
}

/**
 * Pure: true positives (pairs within tolerance, matched one-to-one by closeness), false
 * positives and misses, plus the start errors of the pairs.
 * @example matchFillers([{ start: 1 }], [{ start: 1.1 }, { start: 3 }]) // { tp: 1, fp: 1, fn: 0, startErrors: [0.1] }
 */
export function matchFillers(
  ref: ReadonlyArray<{ start: number }>,
  hyp: ReadonlyArray<{ start: number }>,
  toleranceSec = FILLER_TOLERANCE_SEC,
): FillerMatch & { startErrors: number[] } {
  const pairs = ref
    .flatMap((r, i) => hyp.map((h, j) => ({ i, j, d: Math.abs(r.start - h.start) })))
    .filter((p) => p.d <= toleranceSec)
    .sort((a, b) => a.d - b.d);
  const usedR = new Set<number>();
  const usedH = new Set<number>();
  const startErrors: number[] = [];
  for (const p of pairs) {
    if (usedR.has(p.i) || usedH.has(p.j)) continue;
    usedR.add(p.i);
    usedH.add(p.j);
    startErrors.push(p.d);
  }
  return { tp: usedR.size, fp: hyp.length - usedH.size, fn: ref.length - usedR.size, startErrors };
}

/**
 * Pure: filler matching by order when the reference has no times. Both texts become token
 * sequences in which every hesitation is one token `<hes>`; a recognised hesitation counts as
 * found when the longest common subsequence of the two sequences pairs it with a reference one
 * (so it must sit between the same words), otherwise it is a false alarm.
 * @example matchFillersByOrder('so euh we go', 'so euh we go euh', 'fr') // { tp: 1, fp: 1, fn: 0 }
 */
export function matchFillersByOrder(reference: string, hypothesis: string, language: string): FillerMatch {
  const seq = (text: string) =>
    text
      .normalize('NFC')
      .split(/\s+/)
      .map((w) => (isHesitationIn(w, language) ? '<hes>' : normaliseToken(w)))
      .filter(Boolean);
  const r = seq(reference);
  const h = seq(hypothesis);
  const lcs = Array.from({ length: r.length + 1 }, () => new Array<number>(h.length + 1).fill(0));
  for (let i = r.length - 1; i >= 0; i--) {
    for (let j = h.length - 1; j >= 0; j--) {
      lcs[i][j] = r[i] === h[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  let tp = 0;
  for (let i = 0, j = 0; i < r.length && j < h.length;) {
    if (r[i] === h[j]) {
      if (r[i] === '<hes>') tp++;
      i++;
      j++;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) i++;
    else j++;
  }
  const refCount = r.filter((t) => t === '<hes>').length;
  const hypCount = h.filter((t) => t === '<hes>').length;
  return { tp, fp: hypCount - tp, fn: refCount - tp };
}

/**
 * Pure: a recognition's hesitations against its reference's: by time (`matchFillers`) where the
 * reference has hesitation times, else by order (`matchFillersByOrder`).
 */
export function matchHesitations(
  reference: { text: string; times?: readonly number[] },
  words: ReadonlyArray<{ word: string; start: number }>,
  language: string,
): FillerMatch & { method: 'time' | 'order' } {
  if (reference.times)
    return {
      ...matchFillers(
        reference.times.map((start) => ({ start })),
        words.filter((w) => isHesitationIn(w.word, language)),
      ),
      method: 'time',
    };
  const hypothesis = words.map((w) => w.word).join(' ');
  return { ...matchFillersByOrder(reference.text, hypothesis, language), method: 'order' };
}

/** Pure: the recognised hesitations of a clip whose reference has none (all of them are invented). */
export function inventedHesitations(hypothesisWords: readonly string[], language: string): number {
  return hypothesisWords.filter((w) => isHesitationIn(w, language)).length;
}

/** Pure: recall and precision of summed filler matches (NaN when undefined). */
export function fillerRates(m: FillerMatch): { recall: number; precision: number } {
  return { recall: m.tp / (m.tp + m.fn), precision: m.tp / (m.tp + m.fp) };
}
