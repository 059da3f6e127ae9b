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
 * `--trace <dir>` runs `trace.ts --every 2` beside each job (into `<dir>/<case>-<minutes>min.ndjson`)
 * and ends with the per-process peak table of every traced job (bench/memory/peak-table).
 *
 * Memory must not grow with length: every stage streams (R2 in windows, frames through pipes).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { talkingHead720p } from '../support/media.js';
import { BENCH_ROOT, serviceClient, timeJob } from '../support/service.js';
import { rssPeaks } from '../support/service-rss.js';
import { describeFlatness, flatness, type PeakAtLength } from './flat.js';
import { peakTable, type TracedRun } from './peak-table.js';
import { readTrace } from './role-peaks.js';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '1,10,30' },
    only: { type: 'string' },
    trace: { type: 'string' },
  },
});

/** `trace.ts` beside a job, writing to `out`: resolves once its first sample is taken; `stop()` ends it. */
async function startTrace(out: string) {
  rmSync(out, { force: true });
  const child = spawn(
    process.execPath,
    [...process.execArgv, new URL('./trace.ts', import.meta.url).pathname, '--every', '2', '--out', out],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`trace.ts exited (${code}) before its first sample`)));
  });
  child.stdout.resume();
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function main() {
  const { client } = serviceClient();
  const dir = mkdtempSync(join(tmpdir(), 'bench-memory-'));
  const peaks = new Map<string, PeakAtLength[]>();
  const traced: TracedRun[] = [];
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
        const tracePath = args.trace && join(args.trace, `${c.name}-${minutes}min.ndjson`);
        const trace = tracePath ? await startTrace(tracePath) : undefined;
        const sampler = rssPeaks(BENCH_ROOT);
        const r = await timeJob(client, c.submit, { pollMs: 1000, maxWaitMs: minutes * 60 * 10_000 });
        const peak = sampler.stop();
        if (trace && tracePath) {
          await new Promise((resolve) => setTimeout(resolve, 4_000)); // a last sample at rest
          await trace.stop();
          traced.push({ label: `${c.name} ${minutes} min`, samples: readTrace(tracePath) });
        }
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
    if (traced.length > 0) console.log(`\n${peakTable(traced).join('\n')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
