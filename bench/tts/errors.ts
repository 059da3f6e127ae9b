/**
 * @module bench/tts/errors
 * Where a round trip went wrong, word by word: the minimum-edit alignment's unmatched stretches
 * ("okonkwo" → "conquo count"), tallied per sentence over takes, and which side they come from.
 * A stretch the recogniser gets right at its widest beam on the same audio is a decoding slip
 * (the sound carried the words); one that no beam recovers is the voice's sound or a spelling the
 * recogniser prefers, which the listing's espeak-ng phonemes let a reader tell apart. Pure.
 */
import { matchedPairs } from '../speech/wer.js';

/** One unmatched stretch: reference words and what the recogniser wrote instead ('' = nothing). */
export interface ErrorSpan {
  ref: string;
  hyp: string;
  /** Index of the span's first reference word (where an insertion sits, for an empty `ref`). */
  at: number;
}

/**
 * Pure: the stretches between the words the alignment matches.
 * @example errorSpans(['doctor','amara','okonkwo','counted'], ['docker','and','mara','conquo','counted'])
 * // [{ref:'doctor amara okonkwo', hyp:'docker and mara conquo', at:0}]
 */
export function errorSpans(ref: string[], hyp: string[]): ErrorSpan[] {
  const spans: ErrorSpan[] = [];
  let i = 0;
  let j = 0;
  for (const [ri, hj] of [...matchedPairs(ref, hyp), [ref.length, hyp.length] as [number, number]]) {
    if (ri > i || hj > j)
      spans.push({ ref: ref.slice(i, ri).join(' '), hyp: hyp.slice(j, hj).join(' '), at: i });
    i = ri + 1;
    j = hj + 1;
  }
  return spans;
}

/** Pure: whether another decoding of the same audio (`other`) gets the span's reference words right. */
export function recoveredBy(ref: string[], other: string[], span: ErrorSpan): boolean {
  if (!span.ref) return !errorSpans(ref, other).some((s) => s.at === span.at && s.hyp); // the insertion is gone
  const matched = new Set(matchedPairs(ref, other).map(([r]) => r));
  const words = span.ref.split(' ').length;
  return Array.from({ length: words }, (_, k) => span.at + k).every((r) => matched.has(r));
}

/** Pure: "a → b ×3" lines for a sentence's spans over takes, most frequent first. */
export function tallySpans(spans: ErrorSpan[]): string[] {
  const counts = new Map<string, number>();
  for (const s of spans) {
    const key = `${s.ref || '∅'} → ${s.hyp || '∅'}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]).map(([k, n]) => (n > 1 ? `${k} ×${n}` : k));
}
