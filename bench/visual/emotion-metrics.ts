/**
 * @module bench/visual/emotion-metrics
 * Pure pieces of the facial-emotion measurement: candidate decision rules over the engine's
 * per-frame emotion scores, and per-class precision/recall with a confusion table.
 */

/** One frame's emotion scores from the engine (@vladmandic/human: 7 classes). */
export type Scores = Array<{ emotion: string; score: number }>;

/** A rule turns a clip's per-frame scores (time order) into one label per frame. */
export interface Rule {
  name: string;
  label: (frames: ReadonlyArray<Scores | null>) => Array<string | null>;
}

const top = (s: Scores) => s.reduce((m, e) => (e.score > m.score ? e : m));

/** The rule the analytics apply today (`topEmotion`): the top class when its score ≥ min, else neutral. */
export const topRule = (min = 0.3): Rule => ({
  name: `top ≥ ${min}`,
  label: (frames) =>
    frames.map((s) => (s && s.length ? (top(s).score >= min ? top(s).emotion : 'neutral') : null)),
});

/** Neutral unless the best non-neutral class scores at least `tau` (optionally on smoothed scores). */
export const neutralUnlessRule = (tau: number, smoothFrames = 0): Rule => ({
  name: `neutral unless ≥ ${tau}${smoothFrames ? `, mean of ±${smoothFrames} frames` : ''}`,
  label: (frames) =>
    smooth(frames, smoothFrames).map((s) => {
      if (!s || !s.length) return null;
      const other = s.filter((e) => e.emotion !== 'neutral');
      if (!other.length) return 'neutral';
      const best = top(other);
      return best.score >= tau ? best.emotion : 'neutral';
    }),
});

/** Per-class mean of the scores over ±k frames (frames without a face are skipped). */
export function smooth(frames: ReadonlyArray<Scores | null>, k: number): Array<Scores | null> {
  if (k <= 0) return [...frames];
  return frames.map((s, i) => {
    if (!s) return null;
    const sums = new Map<string, { sum: number; n: number }>();
    for (let j = Math.max(0, i - k); j <= Math.min(frames.length - 1, i + k); j++)
      for (const e of frames[j] ?? []) {
        const a = sums.get(e.emotion) ?? { sum: 0, n: 0 };
        a.sum += e.score;
        a.n += 1;
        sums.set(e.emotion, a);
      }
    return [...sums].map(([emotion, a]) => ({ emotion, score: a.sum / a.n }));
  });
}

export interface ClassFigures {
  label: string;
  support: number;
  predicted: number;
  precision: number | null;
  recall: number | null;
}

/** Confusion counts (truth → predicted → n) and per-class precision/recall over labelled pairs. */
export function confusion(pairs: ReadonlyArray<{ truth: string; predicted: string }>): {
  table: Map<string, Map<string, number>>;
  classes: ClassFigures[];
} {
  const table = new Map<string, Map<string, number>>();
  const labels = new Set<string>();
  for (const { truth, predicted } of pairs) {
    labels.add(truth).add(predicted);
    const row = table.get(truth) ?? new Map<string, number>();
    row.set(predicted, (row.get(predicted) ?? 0) + 1);
    table.set(truth, row);
  }
  const classes = [...labels].sort().map((label) => {
    const tp = table.get(label)?.get(label) ?? 0;
    const support = [...(table.get(label)?.values() ?? [])].reduce((a, b) => a + b, 0);
    const predicted = [...table.values()].reduce((a, row) => a + (row.get(label) ?? 0), 0);
    return {
      label,
      support,
      predicted,
      precision: predicted ? tp / predicted : null,
      recall: support ? tp / support : null,
    };
  });
  return { table, classes };
}

/** RAVDESS file-name emotion codes (third field), calm counted as neutral. */
export const RAVDESS_EMOTIONS: Record<string, string> = {
  '01': 'neutral',
  '02': 'neutral',
  '03': 'happy',
  '04': 'sad',
  '05': 'angry',
  '06': 'fear',
  '07': 'disgust',
  '08': 'surprise',
};

/** The label of a RAVDESS-style file name (`01-01-06-01-02-01-12.mp4` → fear), or null. */
export function ravdessLabel(fileName: string): string | null {
  const m = /^\d\d-\d\d-(\d\d)-\d\d-\d\d-\d\d-\d\d\.\w+$/.exec(fileName);
  return m ? (RAVDESS_EMOTIONS[m[1]] ?? null) : null;
}
