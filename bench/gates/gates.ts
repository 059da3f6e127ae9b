/**
 * @module bench/gates/gates
 * The speed gates of issue #14, as numbers: an analysis gate is a wall time, a render gate a
 * multiple of the floor (a native ffmpeg transcode of the same file in the same run).
 */
export type Gate = { kind: 'seconds'; max: number } | { kind: 'floor'; max: number };

/** Gate per case: speech ≤ 9 s, visual ≤ 18 s (RTF 0.30 of 60 s), blur ≤ 1.3× floor, all ≤ 3× floor. */
export const GATES = {
  speech: { kind: 'seconds', max: 9 },
  visual: { kind: 'seconds', max: 18 },
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

/** Whether a completed run meets its gate; a floor gate without a floor measured is unknown (null). */
export function meetsGate(gate: Gate, wallSec: number, floorSec: number | undefined): boolean | null {
  if (gate.kind === 'seconds') return wallSec <= gate.max;
  const ratio = floorRatio(wallSec, floorSec);
  return Number.isNaN(ratio) ? null : ratio <= gate.max;
}

export function describeGate(gate: Gate, clipSec: number): string {
  return gate.kind === 'seconds'
    ? `≤ ${gate.max} s (RTF ${(gate.max / clipSec).toFixed(2)})`
    : `≤ ${gate.max}× floor`;
}
