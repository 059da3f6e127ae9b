/**
 * @module bench/gates/gates
 * The speed gates of issues #14 and #37, as numbers: an analysis gate is a wall time or a
 * real-time factor, a render gate a multiple of the floor (a native ffmpeg transcode of the same
 * file in the same run).
 */
export type Gate =
  { kind: 'seconds'; max: number } | { kind: 'rtf'; max: number } | { kind: 'floor'; max: number };

/**
 * Gate per case: speech ≤ 9 s; visual analytics at RTF ≤ 0.25 on the gate's own talking head and
 * on an unseen-style one (issue #37: another speaker, framing and encoder must not cost more);
 * blur ≤ 1.3× floor, all ≤ 3× floor.
 */
export const GATES = {
  speech: { kind: 'seconds', max: 9 },
  visual: { kind: 'rtf', max: 0.25 },
  'visual-unseen': { kind: 'rtf', max: 0.25 },
  blur: { kind: 'floor', max: 1.3 },
  all: { kind: 'floor', max: 3 },
} as const satisfies Record<string, Gate>;

/** Wall time over the floor's; NaN without a floor. */
export function floorRatio(wallSec: number, floorSec: number | undefined): number {
  return floorSec && floorSec > 0 ? wallSec / floorSec : NaN;
}

/** Each run's wall over the floor timed beside it (the two lists pair up by index). */
export function pairedFloorRatios(walls: number[], floors: number[]): number[] {
  return walls.map((wall, i) => floorRatio(wall, floors[i]));
}

/**
 * Whether a completed run meets its gate; a floor gate without a floor measured is unknown (null).
 * `clipSec`: the media's length, for an RTF gate.
 */
export function meetsGate(
  gate: Gate,
  wallSec: number,
  floorSec: number | undefined,
  clipSec = NaN,
): boolean | null {
  if (gate.kind === 'seconds') return wallSec <= gate.max;
  if (gate.kind === 'rtf')
    return Number.isFinite(clipSec) && clipSec > 0 ? wallSec / clipSec <= gate.max : null;
  const ratio = floorRatio(wallSec, floorSec);
  return Number.isNaN(ratio) ? null : ratio <= gate.max;
}

export function describeGate(gate: Gate, clipSec: number): string {
  if (gate.kind === 'seconds') return `≤ ${gate.max} s (RTF ${(gate.max / clipSec).toFixed(2)})`;
  if (gate.kind === 'rtf') return `RTF ≤ ${gate.max.toFixed(2)} (≤ ${+(gate.max * clipSec).toFixed(1)} s)`;
  return `≤ ${gate.max}× floor`;
}
