/**
 * @module containers/media/engines/mouth/select
 * Pure: which banked mouth patch each output frame shows. Matching each frame's target
 * openness alone makes the mouth flicker between near-equal shapes from different moments;
 * a Viterbi pass over all frames trades the openness error against a penalty on changes
 * (openness jumps and any switch of patch), so the mouth moves only when the speech says so.
 */

export interface SelectOptions {
  /** Weight of the squared openness jump between consecutive frames' patches. Default 0.5. */
  jumpWeight?: number;
  /** Cost of showing a different patch than the previous frame (hold vs. switch). Default 0.01. */
  switchCost?: number;
  /**
   * Openness difference that counts as "one unit" of error (costs are squared multiples of
   * it). Default: the spread of the bank's openness (max − min), at least 1e-3.
   */
  scale?: number;
}

/**
 * Dynamic programming over frames × candidates, O(frames · k²) time, O(frames · k) backpointers.
 * Returns, per frame, the index into `candidates` (openness of each banked patch).
 * @example selectPatches([0, 0.3, 0.3, 0], [0, 0.1, 0.3]) // [0, 2, 2, 0]
 */
export function selectPatches(
  targets: ArrayLike<number>,
  candidates: ArrayLike<number>,
  options: SelectOptions = {},
): Int32Array {
  const F = targets.length,
    K = candidates.length;
  const out = new Int32Array(F);
  if (F === 0) return out;
  if (K === 0) throw new Error('selectPatches: no candidates');
  let lo = Infinity,
    hi = -Infinity;
  for (let k = 0; k < K; k++) ((lo = Math.min(lo, candidates[k])), (hi = Math.max(hi, candidates[k])));
  const { jumpWeight = 0.5, switchCost = 0.01, scale = Math.max(1e-3, hi - lo) } = options;
  const data = (f: number, k: number) => ((candidates[k] - targets[f]) / scale) ** 2;
  const trans = new Float64Array(K * K);
  for (let j = 0; j < K; j++)
    for (let k = 0; k < K; k++)
      trans[j * K + k] =
        j === k ? 0 : jumpWeight * ((candidates[k] - candidates[j]) / scale) ** 2 + switchCost;
  const back = K <= 0xffff ? new Uint16Array(F * K) : new Uint32Array(F * K);
  let prev = new Float64Array(K),
    cur = new Float64Array(K);
  for (let k = 0; k < K; k++) prev[k] = data(0, k);
  for (let f = 1; f < F; f++) {
    for (let k = 0; k < K; k++) {
      let best = Infinity,
        arg = 0;
      for (let j = 0; j < K; j++) {
        const c = prev[j] + trans[j * K + k];
        if (c < best) ((best = c), (arg = j));
      }
      cur[k] = best + data(f, k);
      back[f * K + k] = arg;
    }
    [prev, cur] = [cur, prev];
  }
  let k = 0;
  for (let j = 1; j < K; j++) if (prev[j] < prev[k]) k = j;
  for (let f = F - 1; f >= 0; f--) {
    out[f] = k;
    k = back[f * K + k];
  }
  return out;
}
