/**
 * @module containers/media/engines/mouth/bank
 * A bounded bank of mouth patches, filled while the source is analysed. Memory must not grow
 * with video length, so at most `capacity` patches are kept; when full, the patch whose
 * openness is closest to another banked patch's (the most redundant shape) gives way. The
 * bank thus drifts toward an even coverage of the openness range the source shows, which is
 * what the per-frame choice needs. The eviction rule is pure (`redundantIndex`).
 */

export interface BankEntry<T> {
  openness: number;
  /** Source frame index the patch was cut from. */
  frame: number;
  value: T;
}

/**
 * Index of the entry to drop from `openness` (≥ 2 values): of the closest pair of neighbours
 * in openness order, the one whose other neighbour is also closer (ties: the later one).
 */
export function redundantIndex(openness: ArrayLike<number>): number {
  const n = openness.length;
  if (n < 2) return n - 1;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => openness[a] - openness[b] || a - b);
  let best = Infinity,
    at = 1;
  for (let r = 1; r < n; r++) {
    const gap = openness[order[r]] - openness[order[r - 1]];
    if (gap < best) ((best = gap), (at = r));
  }
  // Drop the member of the pair that leaves the smaller hole: the extremes are always kept.
  const left = at - 1,
    right = at;
  if (right === n - 1) return order[left === 0 ? right : left];
  if (left === 0) return order[right];
  const holeIfLeft = openness[order[right]] - openness[order[left - 1]];
  const holeIfRight = openness[order[right + 1]] - openness[order[left]];
  return order[holeIfLeft <= holeIfRight ? left : right];
}

export class PatchBank<T> {
  readonly entries: BankEntry<T>[] = [];
  /** Patches offered in total (kept or not). */
  offered = 0;
  constructor(readonly capacity: number) {
    if (!(capacity >= 2)) throw new Error('PatchBank: capacity must be ≥ 2');
  }
  add(entry: BankEntry<T>): void {
    this.offered++;
    this.entries.push(entry);
    if (this.entries.length > this.capacity)
      this.entries.splice(redundantIndex(this.entries.map((e) => e.openness)), 1);
  }
}
