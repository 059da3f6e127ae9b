/**
 * @module containers/media/engines/asr/pocketsphinx-output
 * Pure parsers of `pocketsphinx_batch` output files. `-hypseg` has every segment (words,
 * `<s>`/`</s>`/`<sil>` silences, `[NOISE]`-style fillers) in frames but no confidences;
 * `-ctm` has only real words, with posterior probabilities. One decode writes both, and
 * they are joined word by word.
 */
import type { TimedWord, TimeSegment } from '../../../../src/contract/media.js';

/** Pocketsphinx frame rate (the `-frate` default), frames per second. */
export const PS_FRAMES_PER_SEC = 100;
/** Confidence given to a word whose posterior is missing from the CTM file. */
const MISSING_POSTERIOR_CONFIDENCE = 0.5;

/** One hypseg entry, times in seconds relative to the utterance start. */
export interface HypSegment {
  word: string;
  start: number;
  end: number;
}

/** One CTM entry: the utterance id, word and posterior. */
export interface CtmEntry {
  uttId: string;
  word: string;
  start: number;
  posterior: number;
}

const SILENCE_TOKENS = new Set(['<s>', '</s>', '<sil>']);

/** True for pocketsphinx silence tokens. */
export const isSilenceToken = (word: string): boolean => SILENCE_TOKENS.has(word);
/** True for noise fillers of the noise dictionary (`[NOISE]`, `[SPEECH]`, `++UM++` styles). */
export const isNoiseToken = (word: string): boolean => /^(\[.*\]|\+\+.*\+\+)$/.test(word);
/** Strips the pronunciation-variant suffix: `for(2)` → `for`. */
export const baseWord = (word: string): string => word.replace(/\(\d+\)$/, '');

/**
 * Parses a `-hypseg` file: `uttid S scl T total A ac L lm (sf ascr lscr word)* ef` per line.
 * @returns segments per utterance id, in time order.
 */
export function parseHypseg(text: string): Map<string, HypSegment[]> {
  const out = new Map<string, HypSegment[]>();
  for (const line of text.split('\n')) {
    const tok = line.trim().split(/\s+/);
    if (tok.length < 9 || tok[1] !== 'S') continue;
    const body = tok.slice(9);
    const segs: HypSegment[] = [];
    for (let i = 0; i + 3 < body.length; i += 4) {
      const sf = Number(body[i]);
      const nextSf = Number(body[i + 4] ?? NaN);
      const ef = Number.isFinite(nextSf) ? nextSf : sf;
      segs.push({ word: body[i + 3], start: sf / PS_FRAMES_PER_SEC, end: ef / PS_FRAMES_PER_SEC });
    }
    out.set(tok[0], segs);
  }
  return out;
}

/** Parses a `-ctm` file: `uttid channel start duration word posterior` per line. */
export function parseCtm(text: string): Map<string, CtmEntry[]> {
  const out = new Map<string, CtmEntry[]>();
  for (const line of text.split('\n')) {
    const tok = line.trim().split(/\s+/);
    if (tok.length < 6) continue;
    const entry = { uttId: tok[0], start: Number(tok[2]), word: tok[4], posterior: Number(tok[5]) };
    const list = out.get(entry.uttId) ?? [];
    list.push(entry);
    out.set(entry.uttId, list);
  }
  return out;
}

/**
 * Joins one utterance's hypseg and CTM into words and silences, shifted by `offsetSec`.
 * Noise fillers are dropped (they are not speech); adjacent silences are merged.
 */
export function joinUtterance(
  segs: HypSegment[],
  ctm: CtmEntry[],
  offsetSec: number,
): { words: TimedWord[]; silences: TimeSegment[] } {
  const words: TimedWord[] = [];
  const silences: TimeSegment[] = [];
  let c = 0;
  for (const s of segs) {
    const start = round(offsetSec + s.start);
    const end = round(offsetSec + Math.max(s.end, s.start));
    if (isSilenceToken(s.word)) {
      const last = silences.at(-1);
      if (last && start - last.end <= 1 / PS_FRAMES_PER_SEC) last.end = end;
      else if (end > start) silences.push({ start, end });
      continue;
    }
    if (isNoiseToken(s.word)) continue;
    const word = baseWord(s.word);
    // The CTM holds the same real words in the same order; tolerate a skipped one.
    let confidence = MISSING_POSTERIOR_CONFIDENCE;
    const found = ctm.findIndex((e, i) => i >= c && e.word === word && Math.abs(e.start - s.start) < 0.015);
    if (found >= 0) {
      confidence = clamp01(ctm[found].posterior);
      c = found + 1;
    }
    words.push({ word, start, end, confidence });
  }
  return { words, silences };
}

const round = (sec: number): number => Math.round(sec * 1000) / 1000;
const clamp01 = (x: number): number =>
  Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : MISSING_POSTERIOR_CONFIDENCE;
