/**
 * @module analytics/speech/fillers
 * Filler words. Two kinds, following speech-coaching practice (Toastmasters' "Ah-Counter" list:
 * ah, um, er, well, so, like, you know…) and the linguistics of filled pauses
 * (Clark & Fox Tree 2002) and discourse markers (Schiffrin 1987):
 *
 * - hesitation sounds (um, uh, er, erm, ah, hmm, mm; engine spellings like `uhm`, `[uh]`,
 *   `++UM++`) always count;
 * - discourse fillers (like, so, well, basically, actually, literally, honestly, right, okay,
 *   anyway, you know, I mean, you see, kind of, sort of) count only when used as fillers. A
 *   filler is syntactically detached, so the rules look for a *prosodic boundary* on either
 *   side — a silence of at least `fillerBoundarySec`, a comma or other clause punctuation from
 *   the recogniser, the edge of the speech, or a neighbouring filler — and at the neighbours
 *   ("I like pizza", "looks like rain" are not fillers). Both cues are used because engines
 *   differ: Whisper punctuates but rarely writes "um", pocketsphinx writes "um" but never
 *   punctuates; timing exists for both.
 *
 * Multi-word fillers ("you know") are one instance spanning both words.
 */
import type { Token } from './types';

/** Default silence that marks a prosodic boundary around a candidate filler, seconds. */
export const FILLER_BOUNDARY_SEC = 0.15;

/** One detected filler: the words it covers (token indices), in the contract's shape. */
export interface FillerMatch {
  word: string;
  start: number;
  end: number;
  /** Lowest recogniser confidence among the filler's words. */
  confidence: number;
  tokens: number[];
}

export interface FillerOptions {
  /** See {@link FILLER_BOUNDARY_SEC}. */
  boundarySec?: number;
}

/** Words that, right before a candidate, make it a marker at the start of a clause. */
const CONJUNCTIONS = new Set(['and', 'but', 'or', 'because', 'cause', "'cause", 'cuz', 'then', 'yeah']);
/** Single-word discourse markers; one on the right of a candidate acts as a boundary. */
const MARKERS = new Set([
  'like',
  'so',
  'well',
  'basically',
  'actually',
  'literally',
  'honestly',
  'right',
  'okay',
  'ok',
  'anyway',
  'anyways',
  'yeah',
]);
const SUBJECTS = new Set([
  'i',
  'we',
  'you',
  'they',
  'he',
  'she',
  'it',
  'there',
  'this',
  'that',
  "it's",
  "that's",
  "i'm",
  "we're",
  "they're",
  "you're",
  "there's",
]);
/** A "like" right after these is a verb ("I like", "would like") or a comparison ("looks like"). */
const LIKE_GOVERNORS = new Set([
  'i',
  'you',
  'we',
  'they',
  'he',
  'she',
  'people',
  'would',
  "i'd",
  "we'd",
  "you'd",
  "they'd",
  'd',
  'to',
  'do',
  'does',
  'did',
  "don't",
  "doesn't",
  "didn't",
  'dont',
  'not',
  'also',
  'just',
  'really',
  'exactly',
  'more',
  'much',
  'something',
  'anything',
  'nothing',
  'everything',
  'things',
  'stuff',
  'kind',
  'sort',
  'look',
  'looks',
  'looked',
  'looking',
  'sound',
  'sounds',
  'sounded',
  'seem',
  'seems',
  'seemed',
  'feel',
  'feels',
  'felt',
  'smell',
  'smells',
  'taste',
  'tastes',
  'act',
  'acts',
  'acted',
]);
/** "like I said", "like you mentioned": a conjunction, not a filler. */
const REPORTING = new Set(['said', 'say', 'says', 'mentioned', 'told', 'explained', 'asked', 'know']);
const INTENSIFIERS = new Set([
  'so',
  'really',
  'very',
  'totally',
  'literally',
  'super',
  'just',
  'completely',
  'pretty',
]);
/** After "you know" / "I mean", these start an object: "you know that…", "I mean it". */
const OBJECT_STARTS = new Set([
  'that',
  'what',
  'how',
  'why',
  'where',
  'who',
  'when',
  'whether',
  'if',
  'the',
  'a',
  'an',
  'him',
  'her',
  'them',
  'it',
  'me',
  'us',
  'you',
  'this',
  'these',
  'those',
  'about',
  'my',
  'your',
  'his',
  'their',
  'our',
  'all',
  'everything',
  'nothing',
  'something',
  'anything',
  'everyone',
  'someone',
  'to',
  'business',
  'well',
]);
/** Before "you know"/"I mean"/"you see", these make it a real clause ("do you know", "what I mean"). */
const CLAUSE_OPENERS = new Set([
  'do',
  'did',
  'does',
  "don't",
  "didn't",
  "doesn't",
  'dont',
  'if',
  'as',
  'would',
  'will',
  'can',
  'could',
  'might',
  'may',
  'should',
  'ever',
  'what',
  'which',
  'how',
  'when',
  'whether',
  'that',
  'let',
  "let's",
  'lets',
  "you'll",
  "can't",
  'cant',
  "won't",
  'never',
  'd',
  "i'd",
  'who',
]);
/** Before "kind of"/"sort of", these make it a noun ("this kind of thing", "a sort of bird"). */
const DETERMINERS = new Set([
  'a',
  'an',
  'the',
  'this',
  'that',
  'what',
  'which',
  'some',
  'any',
  'every',
  'each',
  'one',
  'no',
  'same',
  'these',
  'those',
  'my',
  'your',
  'his',
  'her',
  'our',
  'their',
  'its',
  'different',
  'only',
  'right',
  'wrong',
  'new',
  'whole',
  'other',
  'another',
  'certain',
  'particular',
  'favorite',
  'favourite',
  'main',
  'best',
  'first',
  'what',
]);
const SET_OFF_ADVERBS = new Set(['basically', 'actually', 'literally', 'honestly']);
const ISOLATED_ONLY = new Set(['right', 'okay', 'ok', 'anyway', 'anyways']);

/** One filler spanning consecutive tokens (one word, or a multi-word filler like "you know"). */
export function fillerOf(span: readonly Token[]): FillerMatch {
  return {
    word: span.map((t) => t.norm).join(' '),
    start: span[0].start,
    end: span[span.length - 1].end,
    confidence: Math.min(...span.map((t) => t.confidence)),
    tokens: span.map((t) => t.index),
  };
}

/**
 * Finds filler words in time-sorted tokens. `tags` are the tokens' UPOS tags (from
 * `tagTokens`); they only refine "like" and the hedges, so an all-`'X'` array still works.
 *
 * @example
 * detectFillers(buildTokens(words), tagTokens(tokens)) // → [{ word: 'um', start, end, … }]
 */
export function detectFillers(
  tokens: readonly Token[],
  tags: readonly string[] = [],
  { boundarySec = FILLER_BOUNDARY_SEC }: FillerOptions = {},
): FillerMatch[] {
  const out: FillerMatch[] = [];
  const isFiller = new Uint8Array(tokens.length);
  const norm = (i: number): string => tokens[i]?.norm ?? '';
  const tag = (i: number): string => tags[i] ?? 'X';

  /** A prosodic boundary before token i: edge, silence, punctuation, or a filler just before. */
  const before = (i: number): boolean =>
    i === 0 ||
    tokens[i].start - tokens[i - 1].end >= boundarySec ||
    tokens[i - 1].clauseEnd ||
    tokens[i - 1].hesitation ||
    isFiller[i - 1] === 1;
  /** A boundary after token j: edge, silence, punctuation, or a hesitation/marker/conjunction just after. */
  const after = (j: number): boolean =>
    j === tokens.length - 1 ||
    tokens[j + 1].start - tokens[j].end >= boundarySec ||
    tokens[j].clauseEnd ||
    tokens[j + 1].hesitation ||
    MARKERS.has(tokens[j + 1].norm) ||
    // "…great you know but…": a conjunction next means the clause closed on this word.
    CONJUNCTIONS.has(tokens[j + 1].norm);
  const clauseStart = (i: number): boolean => before(i) || CONJUNCTIONS.has(norm(i - 1));

  const push = (from: number, to: number): void => {
    out.push(fillerOf(tokens.slice(from, to + 1)));
    for (let k = from; k <= to; k++) isFiller[k] = 1;
  };

  /** Two-word fillers starting at i; returns true when one matched. */
  const pair = (i: number): boolean => {
    if (i + 1 >= tokens.length) return false;
    const a = norm(i);
    const b = norm(i + 1);
    const prev = norm(i - 1);
    const next = norm(i + 2);
    const B = before(i);
    const A = after(i + 1);
    let hit = false;
    if ((a === 'you' && b === 'know') || (a === 'i' && b === 'mean')) {
      // "do you know", "what I mean" are clauses; the filler is set off or followed by a new clause.
      hit = !(CLAUSE_OPENERS.has(prev) && !B) && (A || (clauseStart(i) && !OBJECT_STARTS.has(next)));
    } else if (a === 'you' && b === 'see') {
      hit = !(CLAUSE_OPENERS.has(prev) && !B) && A && B;
    } else if ((a === 'kind' || a === 'sort') && b === 'of') {
      // A hedge ("it was kind of weird") unless a determiner makes it a noun ("this kind of thing").
      hit = !DETERMINERS.has(prev) && !['DET', 'ADJ', 'NUM'].includes(tag(i - 1)) && i + 2 < tokens.length;
    }
    if (hit) push(i, i + 1);
    return hit;
  };

  /** Single discourse words as fillers, by the rules in the module header. */
  const single = (i: number): boolean => {
    const w = norm(i);
    const prev = norm(i - 1);
    const next = norm(i + 1);
    const B = before(i);
    const A = after(i);
    if (w === 'like') {
      if (B && A) return true;
      if (!B && LIKE_GOVERNORS.has(prev)) return false;
      if (!B && tag(i) === 'VERB') return false;
      if (clauseStart(i) && SUBJECTS.has(next)) return !REPORTING.has(norm(i + 2));
      return INTENSIFIERS.has(next) || ['ADV', 'ADJ', 'NUM'].includes(tag(i + 1));
    }
    if (w === 'so') return (B && A) || (A && CONJUNCTIONS.has(prev) && prev !== 'then');
    if (w === 'well') {
      if (prev === 'as' && !B) return false;
      return B && (A || SUBJECTS.has(next) || tag(i + 1) === 'DET' || tag(i + 1) === 'PRON');
    }
    if (SET_OFF_ADVERBS.has(w)) return clauseStart(i) || A;
    if (ISOLATED_ONLY.has(w)) return B && A;
    if (w === 'kinda' || w === 'sorta') return !DETERMINERS.has(prev) && i + 1 < tokens.length;
    return false;
  };

  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i].hesitation) {
      push(i, i);
      continue;
    }
    if (pair(i)) {
      i++;
      continue;
    }
    if (single(i)) push(i, i);
  }
  return out;
}
