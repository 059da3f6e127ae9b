/**
 * @module bench/memory/run
 * Peak memory against media length (issue #14: flat for 1, 10 and 30 minutes of 720p): visual
 * analytics and background blur of a looped 1280×720 talking head, end to end through a running
 * service, with the peak RSS of workerd and of the media service (with its children) beside.
 *
 *   npm start &                                   # then, when it listens:
 *   npx tsx bench/memory/run.ts --minutes 1,10,30 # PORT (default 8787); --only visual|blur
 *
 * Memory must not grow with length: every stage streams (R2 in windows, frames through pipes).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { VideoApiClient } from '../../src/client/index.js';
import { rssPeaks } from '../support/service-rss.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const PORT = Number(process.env.PORT ?? 8787);
const TALKING_HEAD = join(ROOT, '../shared/media/talking_head/sadtalker_wda_aoc.mp4');
const { values: args } = parseArgs({ options: { minutes: { type: 'string', default: '1,10,30' }, only: { type: 'string' } } });

function devKey(): string {
  if (process.env.DEV_API_KEY) return process.env.DEV_API_KEY.split(',')[0].trim();
  const m = /^DEV_API_KEY\s*=\s*"?([^"\n,]+)/m.exec(readFileSync(join(ROOT, '.dev.vars'), 'utf8'));
  if (!m) throw new Error('no DEV_API_KEY in .dev.vars: start the service with `npm start` first');
  return m[1];
}

const ffmpeg = (...a: string[]) => execFileSync('ffmpeg', ['-v', 'error', '-y', ...a]);

/** `minutes` of 720p talking head: one encoded minute, then looped by stream copy (seconds, not minutes, to build). */
function makeClip(dir: string, minutes: number): string {
  const minute = join(dir, 'minute.mp4');
  if (!existsSync(minute)) ffmpeg('-stream_loop', '-1', '-i', TALKING_HEAD, '-t', '60', '-vf', 'scale=1280:720:force_original_aspect_ratio=increase,crop=1280:720',
    '-c:v', 'libx264', '-preset', 'veryfast', '-c:a', 'aac', minute);
  const out = join(dir, `talking720p-${minutes}min.mp4`);
  ffmpeg('-stream_loop', String(minutes - 1), '-i', minute, '-c', 'copy', out);
  return out;
}

/** Submits, then polls once a second until the job ends. */
async function run(client: VideoApiClient, submit: () => Promise<{ video_id: string }>) {
  const t0 = performance.now();
  const { video_id } = await submit();
  for (;;) {
    const s = await client.getStatus(video_id);
    if (s.status !== 'pending' && s.status !== 'processing') return { status: s.status, error: s.error_message, wallSec: (performance.now() - t0) / 1000 };
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function main() {
  const client = new VideoApiClient({ baseUrl: `http://127.0.0.1:${PORT}`, apiKey: devKey() });
  const dir = mkdtempSync(join(tmpdir(), 'bench-memory-'));
  try {
    console.log('| case | minutes | status | wall s | RTF | peak workerd MiB | peak media MiB | peak total MiB |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const minutes of args.minutes!.split(',').map(Number)) {
      const clip = makeClip(dir, minutes);
      const cases = [
        { name: 'visual', submit: () => client.analyzeVideo(clip, { visualAnalytics: true }) },
        { name: 'blur', submit: () => client.processVideo({ file: clip, blurBackground: true }) },
      ].filter((c) => !args.only || c.name === args.only);
      for (const c of cases) {
        const sampler = rssPeaks(ROOT);
        const r = await run(client, c.submit);
        const peak = sampler.stop();
        console.log(`| ${c.name} | ${minutes} | ${r.status}${r.error ? ` (${r.error})` : ''} | ${r.wallSec.toFixed(0)} | ${(r.wallSec / (minutes * 60)).toFixed(2)} | ${Math.round(peak.workerd)} | ${Math.round(peak.media)} | ${Math.round(peak.total)} |`);
      }
      rmSync(clip, { force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
