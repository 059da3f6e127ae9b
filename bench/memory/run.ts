/**
 * @module bench/memory/run
 * Peak memory against media length (issue #14: flat for 1, 10 and 30 minutes of 720p): visual
 * analytics and background blur of a looped 1280×720 talking head, end to end through a running
 * service, with the peak RSS of workerd and of the media service (with its children) beside, and
 * per case whether the peak stays flat as the length grows.
 *
 *   npm start &                                   # then, when it listens:
 *   npx tsx bench/memory/run.ts --minutes 1,10,30 # PORT (default 8787); --only visual|blur
 *
 * Memory must not grow with length: every stage streams (R2 in windows, frames through pipes).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { talkingHead720p } from '../support/media.js';
import { BENCH_ROOT, serviceClient, timeJob } from '../support/service.js';
import { rssPeaks } from '../support/service-rss.js';
import { describeFlatness, flatness, type PeakAtLength } from './flat.js';

const { values: args } = parseArgs({
  options: { minutes: { type: 'string', default: '1,10,30' }, only: { type: 'string' } },
});

async function main() {
  const { client } = serviceClient();
  const dir = mkdtempSync(join(tmpdir(), 'bench-memory-'));
  const peaks = new Map<string, PeakAtLength[]>();
  try {
    console.log(
      '| case | minutes | status | wall s | RTF | peak workerd MiB | peak media MiB | peak total MiB |',
    );
    console.log('|---|---|---|---|---|---|---|---|');
    for (const minutes of args.minutes!.split(',').map(Number)) {
      const clip = talkingHead720p(dir, minutes * 60);
      const cases = [
        { name: 'visual', submit: () => client.analyzeVideo(clip, { visualAnalytics: true }) },
        { name: 'blur', submit: () => client.processVideo({ file: clip, blurBackground: true }) },
      ].filter((c) => !args.only || c.name === args.only);
      for (const c of cases) {
        const sampler = rssPeaks(BENCH_ROOT);
        const r = await timeJob(client, c.submit, { pollMs: 1000, maxWaitMs: minutes * 60 * 10_000 });
        const peak = sampler.stop();
        if (r.status === 'completed')
          peaks.set(c.name, [...(peaks.get(c.name) ?? []), { minutes, peakMiB: peak.total }]);
        console.log(
          `| ${c.name} | ${minutes} | ${r.status}${r.error ? ` (${r.error})` : ''} | ${r.wallSec.toFixed(0)} | ${(r.wallSec / (minutes * 60)).toFixed(2)} | ${Math.round(peak.workerd)} | ${Math.round(peak.media)} | ${Math.round(peak.total)} |`,
        );
      }
      if (minutes !== 1) rmSync(clip, { force: true });
    }
    console.log('\n| case | peak total against length |\n|---|---|');
    for (const [name, p] of peaks) console.log(`| ${name} | ${describeFlatness(flatness(p))} |`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
