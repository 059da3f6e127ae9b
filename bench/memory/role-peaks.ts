/**
 * @module bench/memory/role-peaks
 * Peak memory per service process role from `bench/memory/trace.ts` samples (issue #14): which
 * process's peak grows with the media's length (workerd's user runtime, the media service's Node,
 * ffmpeg, the segmenter, speech recognition), and the peak heaps of the Worker isolates.
 */
import { readFileSync } from 'node:fs';

export interface TraceProcess {
  pid: string;
  role: string;
  rss: number;
}

/** One line of `trace.ts --out`: seconds since the trace began, each service process, each isolate's heap (MiB). */
export interface TraceSample {
  t: number;
  procs: TraceProcess[];
  heaps: Record<string, { used: number; total: number; backing?: number }>;
}

/** The samples of a `trace.ts --out` file (one JSON line each). */
export function readTrace(path: string): TraceSample[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as TraceSample);
}

export interface RolePeak {
  role: string;
  /** The most one process of this role held at once (the media service's own Node, not its tsx launcher). */
  peakProcess: number;
  /** The most all processes of this role held together at one sample (ffmpeg's decoder and encoder, say). */
  peakSum: number;
  /** The largest process at the first and the last sample it was seen (at rest before and after the job). */
  first: number;
  last: number;
}

export interface HeapPeak {
  isolate: string;
  peakUsed: number;
  /** ArrayBuffers and other off-heap storage V8 accounts to the isolate. */
  peakBacking: number;
}

/** Per role, its peaks over the samples, in the order roles first appear. */
export function rolePeaks(samples: TraceSample[]): RolePeak[] {
  const byRole = new Map<string, RolePeak>();
  for (const s of samples) {
    const sums = new Map<string, { sum: number; largest: number }>();
    for (const p of s.procs) {
      const now = sums.get(p.role) ?? { sum: 0, largest: 0 };
      sums.set(p.role, { sum: now.sum + p.rss, largest: Math.max(now.largest, p.rss) });
    }
    for (const [role, { sum, largest }] of sums) {
      const peak = byRole.get(role);
      if (!peak) {
        byRole.set(role, { role, peakProcess: largest, peakSum: sum, first: largest, last: largest });
        continue;
      }
      peak.peakProcess = Math.max(peak.peakProcess, largest);
      peak.peakSum = Math.max(peak.peakSum, sum);
      peak.last = largest;
    }
  }
  return [...byRole.values()];
}

/** Per isolate, its peak used heap and peak backing store over the samples. */
export function heapPeaks(samples: TraceSample[]): HeapPeak[] {
  const byIsolate = new Map<string, HeapPeak>();
  for (const s of samples) {
    for (const [isolate, h] of Object.entries(s.heaps)) {
      const peak = byIsolate.get(isolate) ?? { isolate, peakUsed: 0, peakBacking: 0 };
      peak.peakUsed = Math.max(peak.peakUsed, h.used);
      peak.peakBacking = Math.max(peak.peakBacking, h.backing ?? 0);
      byIsolate.set(isolate, peak);
    }
  }
  return [...byIsolate.values()];
}
