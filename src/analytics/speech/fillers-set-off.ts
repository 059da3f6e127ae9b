/**
 * @module analytics/speech/fillers-set-off
 * Fillers of languages other than English: every hesitation sound of the language counts, and a
 * discourse marker of the language ("also" in German, "o sea" in Spanish, "du coup" in French)
 * counts only when it is set off on both sides — a silence of at least `boundarySec`, clause
 * punctuation, the edge of the speech, or a neighbouring filler. English keeps its own, finer
 * rules (fillers.ts), which look at the words around "like", "so" and "you know"; without a
 * tagger and word lists of that depth for other languages, the strict rule counts fewer markers
 * rather than counting words that carry meaning ("este libro" is not a filler, "este, …" is).
 */
import { FILLER_BOUNDARY_SEC, fillerOf, type FillerMatch, type FillerOptions } from './fillers';
import type { Token } from './types';

/**
 * Hesitations and set-off markers in time-sorted tokens (`markers`: normalised words, a space
 * between the words of a multi-word marker).
 * @example detectSetOffFillers(buildTokens(words, 'es'), ['este', 'o sea']) // → [{ word: 'eh', … }]
 */
export function detectSetOffFillers(
  tokens: readonly Token[],
  markers: readonly string[],
  { boundarySec = FILLER_BOUNDARY_SEC }: FillerOptions = {},
): FillerMatch[] {
  const out: FillerMatch[] = [];
  const phrases = markers.map((m) => m.split(' ')).sort((a, b) => b.length - a.length);
  let lastFillerEnd = -1; // index of the last token of the previous filler
  const before = (i: number): boolean =>
    i === 0 ||
    lastFillerEnd === i - 1 ||
    tokens[i - 1].hesitation ||
    tokens[i - 1].clauseEnd ||
    tokens[i].start - tokens[i - 1].end >= boundarySec;
  const after = (j: number): boolean =>
    j === tokens.length - 1 ||
    tokens[j].clauseEnd ||
    tokens[j + 1].hesitation ||
    tokens[j + 1].start - tokens[j].end >= boundarySec;
  const push = (from: number, to: number): void => {
    out.push(fillerOf(tokens.slice(from, to + 1)));
    lastFillerEnd = to;
  };
  const markerAt = (i: number): number => {
    for (const words of phrases) {
      const j = i + words.length - 1;
      if (j >= tokens.length) continue;
      // Punctuation inside a multi-word marker ("o, sea") breaks it.
      const inside = words.every(
        (w, k) => tokens[i + k].norm === w && (k === words.length - 1 || !tokens[i + k].clauseEnd),
      );
      if (inside) return words.length;
    }
    return 0;
  };
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i].hesitation) {
      push(i, i);
      continue;
    }
    const n = markerAt(i);
    if (n > 0 && before(i) && after(i + n - 1)) {
      push(i, i + n - 1);
      i += n - 1;
    }
  }
  return out;
}
