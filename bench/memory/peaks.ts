/**
 * @module bench/memory/peaks
 * The peak table (bench/memory/peak-table) of `bench/memory/trace.ts --out` files side by side.
 *
 *   npx tsx bench/memory/peaks.ts blur1=/tmp/blur1.ndjson blur10=/tmp/blur10.ndjson …
 */
import { basename } from 'node:path';
import { peakTable } from './peak-table.js';
import { readTrace } from './role-peaks.js';

const runs = process.argv.slice(2).map((arg) => {
  const [label, path] = arg.includes('=') ? arg.split('=', 2) : [basename(arg, '.ndjson'), arg];
  return { label, samples: readTrace(path) };
});
if (runs.length === 0) {
  console.error('usage: npx tsx bench/memory/peaks.ts [label=]trace.ndjson …');
  process.exit(2);
}
console.log(peakTable(runs).join('\n'));
