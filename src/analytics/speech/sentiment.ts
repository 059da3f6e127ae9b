/**
 * @module analytics/speech/sentiment
 * Word-level and overall sentiment with VADER (Hutto & Gilbert 2014) via `vader-sentiment`
 * (its prebuilt bundle: lexicon compiled in, no `fs`).
 *
 * A word's `compound` is VADER's compound score of the word alone — normalize(valence) =
 * v / √(v² + 15) — or, when one of the three preceding words negates it ("not great"), VADER's
 * score of "not <word>" (valence × −0.74), mirroring VADER's own negation window.
 * Words that only look like sentiment are skipped: fillers ("like", "well", "you know"),
 * function words (determiners, pronouns, adpositions, auxiliaries, conjunctions, particles —
 * "like" as a preposition), "kind"/"sort" in "kind of", and "pretty" as an intensifier.
 */
import vader from 'vader-sentiment';
import type { Token } from './types';

const analyzer = vader.SentimentIntensityAnalyzer;

/** Words that negate the next three words, VADER's NEGATE list plus any "n't" contraction. */
const NEGATIONS = new Set([
  'not',
  'no',
  'never',
  'none',
  'nobody',
  'nothing',
  'neither',
  'nor',
  'nowhere',
  'cannot',
  'without',
  'aint',
  'arent',
  'cant',
  'couldnt',
  'didnt',
  'doesnt',
  'dont',
  'hadnt',
  'hasnt',
  'havent',
  'isnt',
  'mightnt',
  'mustnt',
  'neednt',
  'shant',
  'shouldnt',
  'wasnt',
  'werent',
  'wont',
  'wouldnt',
  'rarely',
  'seldom',
  'despite',
]);
const NEGATION_WINDOW = 3;
const FUNCTION_TAGS = new Set(['DET', 'PRON', 'ADP', 'AUX', 'CCONJ', 'SCONJ', 'PART', 'PUNCT', 'NUM', 'SYM']);

const cache = new Map<string, number>();
/** VADER compound of a short text, memoised (lexicon look-ups repeat a lot in a transcript). */
function compoundOf(text: string): number {
  let c = cache.get(text);
  if (c === undefined) {
    c = analyzer.polarity_scores(text).compound;
    if (cache.size > 50_000) cache.clear();
    cache.set(text, c);
  }
  return c;
}

function isNegation(norm: string): boolean {
  return NEGATIONS.has(norm) || norm.endsWith("n't");
}

export interface SentimentWord {
  time: number;
  word: string;
  compound: number;
  /** Token index, for callers that align with other analytics. */
  token: number;
}

/**
 * Sentiment-bearing words (compound ≠ 0) in time order; `time` is the word's start.
 * `tags` are UPOS tags per token; `skip` holds token indices of detected fillers.
 *
 * @example
 * sentimentWords(tokensOf('this is great'), tags) // → [{ time: …, word: 'great', compound: 0.6249 }]
 */
export function sentimentWords(
  tokens: readonly Token[],
  tags: readonly string[] = [],
  skip: ReadonlySet<number> = new Set(),
): SentimentWord[] {
  const out: SentimentWord[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.hesitation || skip.has(t.index) || FUNCTION_TAGS.has(tags[i])) continue;
    const next = tokens[i + 1];
    if ((t.norm === 'kind' || t.norm === 'sort') && next?.norm === 'of') continue;
    if (t.norm === 'pretty' && (tags[i + 1] === 'ADJ' || tags[i + 1] === 'ADV')) continue;
    let compound = compoundOf(t.norm);
    if (compound === 0) continue;
    const window = tokens.slice(Math.max(0, i - NEGATION_WINDOW), i);
    if (window.some((w) => isNegation(w.norm))) compound = compoundOf(`not ${t.norm}`);
    if (compound === 0) continue;
    out.push({ time: t.start, word: t.norm, compound, token: t.index });
  }
  return out;
}

/**
 * Overall valence: the mean VADER compound of the sentences, each scored as text with its
 * fillers removed (VADER would read filler "like" as positive). Averaging sentences, rather
 * than scoring the whole transcript, keeps long talks from saturating at ±1. 0 without words.
 */
export function overallValence(
  sentences: readonly (readonly Token[])[],
  skip: ReadonlySet<number> = new Set(),
): number {
  const scores = sentences
    .map((s) =>
      s
        .filter((t) => !t.hesitation && !skip.has(t.index))
        .map((t) => t.text)
        .join(' '),
    )
    .filter((text) => text.length > 0)
    .map((text) => analyzer.polarity_scores(text).compound);
  return scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : 0;
}
