/**
 * @module bench/memory/flat
 * Whether peak memory stays flat as the media grows (issue #14): the peak at the longest length
 * against the peak at the shortest, per case.
 */

/** Growth above this share of the shortest length's peak is not flat (sampling noise stays well under it). */
export const FLAT_TOLERANCE = 0.15;

export interface PeakAtLength {
  minutes: number;
  peakMiB: number;
}

export type Flatness = { verdict: 'flat' | 'grows'; growth: number } | { verdict: 'one length' };

export function flatness(peaks: PeakAtLength[]): Flatness {
  const byLength = [...peaks].sort((a, b) => a.minutes - b.minutes);
  if (byLength.length < 2 || byLength[0].minutes === byLength[byLength.length - 1].minutes)
    return { verdict: 'one length' };
  const shortest = byLength[0].peakMiB;
  const longest = byLength[byLength.length - 1].peakMiB;
  const growth = (longest - shortest) / shortest;
  return { verdict: growth <= FLAT_TOLERANCE ? 'flat' : 'grows', growth };
}

export function describeFlatness(f: Flatness): string {
  if (f.verdict === 'one length') return 'n/a (one length: pass several, e.g. --minutes 1,10,30)';
  return `${f.verdict} (${f.growth >= 0 ? '+' : ''}${Math.round(f.growth * 100)} % from the shortest to the longest)`;
}
