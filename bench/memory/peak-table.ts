/**
 * @module bench/memory/peak-table
 * Traced runs side by side as a Markdown table (issue #14: does any process's peak grow with the
 * media's length?): per process role its peak RSS (the largest process; `(+N)` when several of the
 * role together held more, as ffmpeg's decoder and encoder do) with its size at the first and last
 * sample, and per Worker isolate its peak used heap and backing store.
 */
import { heapPeaks, rolePeaks, type TraceSample } from './role-peaks.js';

export interface TracedRun {
  label: string;
  samples: TraceSample[];
}

/** wrangler's own Node is the dev server, not the service (see bench/support/service-procs). */
const SKIPPED_ROLES = /^wrangler/;
/** The service's own processes first, in this order; any other role after them. */
const ROLE_ORDER = [
  'workerd user',
  'workerd proxy',
  'media service (node)',
  'ffmpeg',
  'segmenter',
  'speech recognition',
];
const rank = (role: string) => (ROLE_ORDER.indexOf(role) + ROLE_ORDER.length + 1) % (ROLE_ORDER.length + 1);

export function peakTable(traced: TracedRun[]): string[] {
  const runs = traced.map(({ label, samples }) => ({
    label,
    seconds: samples.at(-1)?.t ?? 0,
    roles: rolePeaks(samples),
    heaps: heapPeaks(samples),
  }));
  const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
  const lines = [
    row(['peak RSS MiB (first → last)', ...runs.map((r) => `${r.label} (${r.seconds} s)`)]),
    row(['---', ...runs.map(() => '---')]),
  ];
  const roles = [...new Set(runs.flatMap((r) => r.roles.map((p) => p.role)))]
    .filter((role) => !SKIPPED_ROLES.test(role))
    .sort((a, b) => rank(a) - rank(b));
  for (const role of roles) {
    const cells = runs.map((r) => {
      const p = r.roles.find((x) => x.role === role);
      if (!p) return '–';
      // The media service's tsx launcher is a second Node of ~50 MiB: its sum says nothing.
      const together =
        p.peakSum > p.peakProcess && !/node/.test(role) ? ` (+${p.peakSum - p.peakProcess})` : '';
      return `**${p.peakProcess}**${together} (${p.first} → ${p.last})`;
    });
    lines.push(row([role, ...cells]));
  }
  for (const isolate of [...new Set(runs.flatMap((r) => r.heaps.map((h) => h.isolate)))]) {
    const cells = runs.map((r) => {
      const h = r.heaps.find((x) => x.isolate === isolate);
      return h ? `${h.peakUsed} / ${h.peakBacking}` : '–';
    });
    lines.push(row([`heap ${isolate}: used / backing`, ...cells]));
  }
  return lines;
}
