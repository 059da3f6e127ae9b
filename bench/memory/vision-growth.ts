/**
 * @module bench/memory/vision-growth
 * Whether the vision step's memory grows with the frames it has seen (issue #14: the media
 * service's Node grew with the length of a visual analysis): runs the vision pool
 * over the same clip several times in this process and prints the process's RSS after each pass.
 * A high-water mark levels off after the first passes; a leak keeps adding per pass.
 *
 *   npx tsx bench/memory/vision-growth.ts <video> [passes=4]
 */
import { analyzeVideo } from '../../containers/media/engines/vision/analyze.js';
import { sharedVisionPool } from '../../containers/media/engines/vision/pool.js';

const [video, passesArg = '4'] = process.argv.slice(2);
if (!video) {
  console.error('usage: npx tsx bench/memory/vision-growth.ts <video> [passes]');
  process.exit(2);
}
const MiB = (n: number) => Math.round(n / 2 ** 20);
const pool = sharedVisionPool();
await pool.ready();
const usage = () => {
  const m = process.memoryUsage();
  return `rss ${MiB(m.rss)} heap ${MiB(m.heapUsed)} external ${MiB(m.external)} arrayBuffers ${MiB(m.arrayBuffers)}`;
};
console.log(`ready (${pool.threads} threads): ${usage()}`);
let frames = 0;
for (let pass = 1; pass <= Number(passesArg); pass++) {
  const run = analyzeVideo(video, { pool });
  for (let r = await run.next(); !r.done; r = await run.next()) frames++;
  console.log(`pass ${pass}, ${frames} frames: ${usage()}`);
}
pool.dispose();
