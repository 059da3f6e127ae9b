/**
 * @module containers/media/engines/asr/align-fillers
 * Exact times for a recogniser's words, with hesitations counted by the acoustics. One
 * soundswallower grammar search per utterance: the words in order, and at every place the
 * recogniser wrote a hesitation ("um", "uh, uh") a run of one or more fillers
 * (`(um | uh | hmm)+`) whose number and kind the acoustic model decides. Why: Whisper, told by
 * its prompt to keep fillers, finds *where* people hesitate, but greedy decoding then either
 * merges "uh uh uh" into one or loops ("uh, uh, …" to the end of the window); the aligner hears
 * each one. Before the first word and between any two other words the grammar also offers an
 * optional run of "um"/"uh" (OPTIONAL_FILLERS) at a small weight (OPTIONAL_FILLER_WEIGHT), for
 * hesitations Whisper left out.
 */
import type { TimedWord } from '../../../../src/contract/media.js';
import { ensureWords } from './align.js';
import { alignDecoder, SEARCH_WITH_SILENCES, type AlignSegment } from './align-decoder.js';
import { alignTokens } from './align-tokens.js';
import { AsrAbortedError } from './errors.js';
import { ASR_SAMPLE_RATE_HZ } from './pcm.js';
import { isHesitation } from '../../../../src/analytics/speech/tokens.js';

/** Hesitation words the aligner may put in a filler run (all in soundswallower's dictionary). */
export const ALIGN_FILLERS = ['um', 'uh', 'hmm'] as const;

/**
 * The fillers of an optional run, where the recogniser wrote no hesitation: no "hmm". A "hmm"
 * heard there is mostly a breath, line noise or the nasal end of the word before it (on the
 * real telephone speech of the `wuw-en` set's tune part, none of the 6 was a hesitation; on the
 * shared disfluent clips none was heard), while a written "hmm" is kept as heard.
 */
export const OPTIONAL_FILLERS = ['um', 'uh'] as const;

/**
 * One place of the grammar: a dictionary token of word `word`, a run of fillers, or a word that
 * may instead have been a run of fillers (`tokenOrFillers`: the acoustics decide).
 */
export type GrammarItem =
  | { kind: 'token'; token: string; word: number }
  | { kind: 'fillers'; word: number }
  | { kind: 'tokenOrFillers'; token: string; word: number };

/**
 * Pure: true when word `i` of `words` stands alone as a sentence ("…arrangements? What? She…"):
 * a short word with sentence punctuation after it and a sentence end (or nothing) before it.
 * Whisper, told to keep hesitations, still writes some hesitations this way ("What?", "Yeah!",
 * "Oh."); the aligner is offered a filler run in its place and keeps the word only when the
 * sound matches it better.
 */
export function standsAlone(words: readonly string[], i: number): boolean {
  const ends = (w: string | undefined) => w === undefined || /[.?!…]["'”’)\]]*$/.test(w.trim());
  const tokens = alignTokens(words[i]);
  return tokens.length === 1 && tokens[0].length <= MAX_ALONE_LETTERS && ends(words[i]) && ends(words[i - 1]);
}

/** Longest word `standsAlone` considers: a hesitation heard as a word is a short one. */
export const MAX_ALONE_LETTERS = 4;

/**
 * Grammar weight of an optional filler run between two words (against 1 − weight for none).
 * Chosen on ../shared/media/disfluent + spliced (34 fillers), optional run after every word: the
 * best filler recall for its precision (figures in docs/benchmarks.md).
 */
export const OPTIONAL_FILLER_WEIGHT = 0.01;

export interface FillerAlignOptions {
  /** Align the words exactly as written, hesitations included, nothing optional (a verbatim reference). */
  exact?: boolean;
  /** See OPTIONAL_FILLER_WEIGHT; 0 offers no optional fillers. */
  optionalFillerWeight?: number;
}

/**
 * Pure: the grammar items of a word list. Consecutive hesitation words become one filler run;
 * other words become their dictionary tokens (`known` says which tokens the dictionary has).
 */
export function grammarItems(
  words: readonly string[],
  known: (token: string) => boolean,
  { exact = false } = {},
): GrammarItem[] {
  const items: GrammarItem[] = [];
  words.forEach((w, i) => {
    const tokens = alignTokens(w);
    if (!exact && tokens.length === 1 && isHesitation(tokens[0])) {
      if (items.at(-1)?.kind !== 'fillers') items.push({ kind: 'fillers', word: i });
      return;
    }
    if (!exact && known(tokens[0] ?? '') && standsAlone(words, i)) {
      items.push({ kind: 'tokenOrFillers', token: tokens[0], word: i });
      return;
    }
    for (const token of tokens) if (known(token)) items.push({ kind: 'token', token, word: i });
  });
  return items;
}

/**
 * Pure: the JSGF grammar of the items, with an optional filler run of weight `optionalWeight`
 * between two tokens.
 * @example jsgfOf([{ kind: 'token', token: 'so', word: 0 }, { kind: 'fillers', word: 1 }]) // '... public <s> = so <f>; ...'
 */
export function jsgfOf(
  items: readonly GrammarItem[],
  optionalWeight = 0,
  afterWord: (word: number) => boolean = () => true,
): string {
  // No optional run inside a word or right beside a required one (that run counts the fillers there).
  const optionalAfter = (k: number) => {
    const it = items[k];
    const next = items[k + 1];
    return (
      optionalWeight > 0 &&
      it.kind === 'token' &&
      next?.kind === 'token' &&
      next.word !== it.word &&
      afterWord(it.word)
    );
  };
  const place = (it: GrammarItem) =>
    it.kind === 'fillers' ? '<f>' : it.kind === 'tokenOrFillers' ? `(${it.token} | <f>)` : it.token;
  // People also hesitate before their first word ("Uh, here we are"), which Whisper rarely writes.
  const lead = optionalWeight > 0 && items[0]?.kind === 'token' ? '[<o>] ' : '';
  const body = lead + items.map((it, k) => place(it) + (optionalAfter(k) ? ' [<o>]' : '')).join(' ');
  const lines = [
    '#JSGF V1.0;',
    'grammar utt;',
    `public <s> = ${body};`,
    `<f> = (${ALIGN_FILLERS.join(' | ')})+;`,
  ];
  if (optionalWeight > 0)
    lines.push(
      `<o> = /${(1 - optionalWeight).toFixed(6)}/ <NULL> | /${optionalWeight.toFixed(6)}/ <g>;`,
      `<g> = (${OPTIONAL_FILLERS.join(' | ')})+;`,
    );
  return [...lines, ''].join('\n');
}

/** One word of the decoder's alignment. */
type Seg = AlignSegment;

/**
 * Pure: reads the search result back onto the items: each token item gets its segment, each
 * filler run the fillers heard. Undefined when the result does not follow the items (the search
 * ended outside the grammar's final state).
 */
export function readAlignment(
  items: readonly GrammarItem[],
  segs: readonly Seg[],
): Array<{ item: GrammarItem; segs: Seg[] }> | undefined {
  const words = segs
    .map((s) => ({ ...s, t: s.t.replace(/\(\d+\)$/, '') }))
    .filter((s) => !/^(<s>|<\/s>|<sil>|\(NULL\)|\[.*\]|\+\+.*\+\+)$/.test(s.t));
  const fillers = new Set<string>(ALIGN_FILLERS);
  const out: Array<{ item: GrammarItem; segs: Seg[] }> = [];
  let k = 0;
  for (const item of items) {
    if (item.kind === 'tokenOrFillers') {
      if (words[k]?.t === item.token) {
        out.push({ item: { kind: 'token', token: item.token, word: item.word }, segs: [words[k++]] });
        continue;
      }
      const run: Seg[] = [];
      while (k < words.length && fillers.has(words[k].t)) run.push(words[k++]);
      if (run.length === 0) return undefined;
      out.push({ item: { kind: 'fillers', word: item.word }, segs: run });
    } else if (item.kind === 'token') {
      // Optional fillers before a token are extra hesitations: attach them as their own run.
      const extra: Seg[] = [];
      while (k < words.length && fillers.has(words[k].t) && words[k].t !== item.token) extra.push(words[k++]);
      if (extra.length) out.push({ item: { kind: 'fillers', word: -1 }, segs: extra });
      if (words[k]?.t !== item.token) return undefined;
      out.push({ item, segs: [words[k++]] });
    } else {
      const run: Seg[] = [];
      while (k < words.length && fillers.has(words[k].t)) run.push(words[k++]);
      if (run.length === 0) return undefined;
      out.push({ item, segs: run });
    }
  }
  const tail: Seg[] = [];
  while (k < words.length && fillers.has(words[k].t)) tail.push(words[k++]);
  if (tail.length) out.push({ item: { kind: 'fillers', word: -1 }, segs: tail });
  return k === words.length ? out : undefined;
}

/**
 * Aligns `words` (a recogniser's, in order, absolute times) to [startSec, endSec] of `pcm`
 * (16 kHz s16) and returns them with aligned absolute times, hesitation runs replaced by the
 * fillers heard. Undefined when the grammar search fails (the caller keeps its own times).
 * @throws AsrAbortedError when `signal` fires.
 */
export function alignWithFillers(
  pcm: Int16Array,
  startSec: number,
  endSec: number,
  words: readonly TimedWord[],
  options: FillerAlignOptions = {},
  signal?: AbortSignal,
): Promise<TimedWord[] | undefined> {
  const { from, to } = utteranceSamples(startSec, endSec);
  return alignSpanWithFillers(pcm.subarray(from, to), from / ASR_SAMPLE_RATE_HZ, words, options, signal);
}

/** Pure: the sample range [from, to) of [startSec, endSec] that the filler aligner searches. */
export const utteranceSamples = (startSec: number, endSec: number): { from: number; to: number } => ({
  from: Math.floor(startSec * ASR_SAMPLE_RATE_HZ),
  to: Math.ceil(endSec * ASR_SAMPLE_RATE_HZ),
});

/**
 * `alignWithFillers` on the utterance's own samples `span`, which start `offsetSec` into the
 * audio the words' times refer to.
 */
export async function alignSpanWithFillers(
  span: Int16Array,
  offsetSec: number,
  words: readonly TimedWord[],
  options: FillerAlignOptions = {},
  signal?: AbortSignal,
): Promise<TimedWord[] | undefined> {
  const tokens = [...new Set(words.flatMap((w) => alignTokens(w.word)))];
  const found = await ensureWords(tokens, signal).catch(rethrowAbort);
  if (!found) return undefined;
  const knownTokens = new Set(tokens.filter((_, i) => found[i]));
  const items = grammarItems(
    words.map((w) => w.word),
    (t) => knownTokens.has(t),
    { exact: options.exact },
  );
  if (items.length === 0) return undefined;
  const weight = options.exact ? 0 : (options.optionalFillerWeight ?? OPTIONAL_FILLER_WEIGHT);
  const grammar = jsgfOf(items, weight);
  const segs = await alignDecoder.align(span, { grammar }, SEARCH_WITH_SILENCES, signal).catch(rethrowAbort);
  const read = segs && readAlignment(items, segs);
  return read && wordsOf(words, read, offsetSec);
}

/** A failed search leaves the words their own times (undefined); an abort ends the call. */
const rethrowAbort = (err: unknown): undefined => {
  if (err instanceof AsrAbortedError) throw err;
  return undefined;
};

/*
 * Where an optional filler may go: after every word. Offering it only where Whisper punctuated
 * (people pause where it writes "so," or "well...") costs well under half the alignment CPU, but
 * finds fewer of the hesitations Whisper left out on the disfluent clips plus the spliced set
 * (other speakers, real fillers spliced at any word; `SPLICED=1 npx tsx
 * bench/speech/fillers-tune.ts`, figures in docs/benchmarks.md). People hesitate mid-clause too,
 * and the speech gate has the room.
 */

/**
 * Pure: rebuilds the word list from the read alignment (segment times + `offsetSec`). Words
 * with no token in the dictionary keep their own times.
 */
export function wordsOf(
  words: readonly TimedWord[],
  read: Array<{ item: GrammarItem; segs: Seg[] }>,
  offsetSec: number,
): TimedWord[] {
  const out: TimedWord[] = [];
  const span = new Map<number, { start: number; end: number }>();
  const fillerRunWords = new Set<number>();
  const heard = heardFillers(read);
  for (const [k, { item, segs }] of read.entries()) {
    if (item.kind === 'fillers') {
      if (item.word >= 0) fillerRunWords.add(item.word);
      const confidence = item.word >= 0 ? words[item.word].confidence : 0.5;
      for (const s of heard[k])
        out.push({ word: s.t, start: r3(offsetSec + s.b), end: r3(offsetSec + s.b + s.d), confidence });
      continue;
    }
    const s = segs[0];
    const prev = span.get(item.word);
    span.set(item.word, { start: prev?.start ?? s.b, end: s.b + s.d });
  }
  // Every word of a filler run was replaced by what the aligner heard.
  let inRun = false;
  words.forEach((w, i) => {
    const sp = span.get(i);
    if (sp) out.push({ ...w, start: r3(offsetSec + sp.start), end: r3(offsetSec + sp.end) });
    else if (fillerRunWords.has(i)) inRun = true;
    else if (!(inRun && isHesitation(alignTokens(w.word)[0] ?? ''))) {
      inRun = false;
      out.push({ ...w });
    }
    if (sp) inRun = false;
  });
  return out.sort((a, b) => a.start - b.start || a.end - b.end);
}

/**
 * A heard filler shorter than this is a breath, a click or a vowel of the next word, not a
 * hesitation, seconds. (Measured on ../shared/media/disfluent: 0.12 s gave precision 43 %,
 * 0.2 s 60-93 %; a listener's "uh" lasts 0.2-1 s.)
 */
export const MIN_FILLER_SEC = 0.2;

/**
 * A heard filler shorter than this that starts where the previous filler ends is the rest of that
 * one, seconds: the aligner's models cut one long hesitation ("uhm", a French-sounding "euh")
 * into two short pieces ("uh" + "um", "uh" + "uh") with no silence between. Two real hesitations
 * in a row are each longer (the shared disfluent speaker's "uh, um" are 0.5 s each).
 */
export const FILLER_TAIL_SEC = 0.3;

/** Seconds between two heard fillers under which they touch (soundswallower's frame is 10 ms). */
const TOUCHING_SEC = 0.01;

/**
 * Pure: the fillers of a run as hesitations: each short piece that touches the one before joins it
 * (FILLER_TAIL_SEC), then only those long enough count (MIN_FILLER_SEC).
 * @example countedFillers([{ t: 'uh', b: 1, d: 0.15, p: 0 }, { t: 'um', b: 1.15, d: 0.12, p: 0 }]) // [{ t: 'uh', b: 1, d: 0.27, p: 0 }]
 */
export function countedFillers(segs: readonly Seg[]): Seg[] {
  return joinedFillers(segs).filter((s) => s.d >= MIN_FILLER_SEC);
}

/**
 * Pure: the longest filler of a run, touching pieces joined as in `countedFillers`, however short
 * (undefined for an empty run).
 * @example longestFiller([{ t: 'uh', b: 1, d: 0.05, p: 0 }, { t: 'um', b: 1.5, d: 0.09, p: 0 }]) // { t: 'um', b: 1.5, d: 0.09, p: 0 }
 */
export function longestFiller(segs: readonly Seg[]): Seg | undefined {
  return longestOf(joinedFillers(segs));
}

function longestOf(segs: readonly Seg[]): Seg | undefined {
  return segs.reduce<Seg | undefined>((a, b) => (a && a.d >= b.d ? a : b), undefined);
}

function joinedFillers(segs: readonly Seg[]): Seg[] {
  const joined: Seg[] = [];
  for (const s of segs) {
    const last = joined.at(-1);
    if (last && s.b - (last.b + last.d) < TOUCHING_SEC && s.d < FILLER_TAIL_SEC)
      joined[joined.length - 1] = { ...last, d: s.b + s.d - last.b };
    else joined.push(s);
  }
  return joined;
}

/**
 * Pure: the hesitations each item of the read alignment counts (none for a token). A run the
 * recogniser wrote (it wrote "uh" there, or its hesitation scan put one there) counts at least
 * one, its longest piece, even when every piece is shorter than MIN_FILLER_SEC: two witnesses
 * agree there is a hesitation, and on narrowband speech the aligner often gives it a few frames
 * while it stretches a neighbouring word over the rest. Not when the aligner counted one in the
 * run a word away: it heard the recogniser's hesitation there ("forced, umm… a liner" heard as
 * "forced a um liner"). A run the aligner alone heard (an optional run) counts at most one, its
 * longest: with no other witness, two pieces apart there were one hesitation cut in two
 * ("Jignesh, uh(0.34 s) um(0.35 s) Patan" for "Jignesh ah Veton" on telephone English).
 */
export function heardFillers(read: ReadonlyArray<{ item: GrammarItem; segs: Seg[] }>): Seg[][] {
  const counted = read.map(({ item, segs }) => (item.kind === 'fillers' ? countedFillers(segs) : []));
  const countedBeside = (k: number) =>
    [k - 2, k + 2].some((j) => (counted[j]?.length ?? 0) > 0 && read[(j + k) / 2].item.kind === 'token');
  return read.map(({ item, segs }, k) => {
    if (item.kind !== 'fillers') return [];
    if (item.word < 0) return counted[k].length > 1 ? [longestOf(counted[k])!] : counted[k];
    if (counted[k].length > 0 || countedBeside(k)) return counted[k];
    const longest = longestFiller(segs);
    return longest ? [longest] : [];
  });
}

const r3 = (x: number): number => Math.round(x * 1000) / 1000;
