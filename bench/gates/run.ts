/**
 * @module bench/gates/run
 * The issues' speed gates measured end to end through a running service (`npm start`): upload →
 * queue → Worker steps → media container → `completed`, timed by the client with the job's own
 * stage times beside. Run it on an idle machine; nothing else may share the two cores.
 *
 *   npm start &                       # then, when it listens:
 *   npx tsx bench/gates/run.ts        # PORT (default 8787); --only speech|visual|blur
 *
 * Cases (media built with Debian ffmpeg in a temp dir, from ../shared/media):
 * - speech: 60 s of real speech (the speech clips looped, 44.1 kHz MP3), analysis without visual.
 *   Gate ≤ 9 s (issue #11; was ≤ 20 s with pocketsphinx).
 * - visual: 60 s of 1280×720 talking head (looped, with its speech), visual_analytics=true.
 *   Gate ≤ 60 s.
 * - blur: the same 720p clip, process-video with blur_background=true only. Gate ≤ 60 s.
 * Peak RSS is summed over the workerd and media-service processes, sampled every 250 ms.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { VideoApiClient } from '../../src/client/index.js';
import { serviceRssMiB } from '../support/service-rss.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const SHARED = join(ROOT, '../shared/media');
const PORT = Number(process.env.PORT ?? 8787);
const CLIP_SEC = 60;
const MAX_WAIT_MS = 600_000;
const TALKING_HEAD = join(SHARED, 'talking_head/sadtalker_wda_aoc.mp4');

const { values: args } = parseArgs({ options: { only: { type: 'string' } } });

function devKey(): string {
  if (process.env.DEV_API_KEY) return process.env.DEV_API_KEY.split(',')[0].trim();
  const m = /^DEV_API_KEY\s*=\s*"?([^"\n,]+)/m.exec(readFileSync(join(ROOT, '.dev.vars'), 'utf8'));
  if (!m) throw new Error('no DEV_API_KEY in .dev.vars: start the service with `npm start` first');
  return m[1];
}

function ffmpeg(...a: string[]) {
  execFileSync('ffmpeg', ['-v', 'error', '-y', ...a]);
}

/** 60 s of speech: every clip of ../shared/media/speech with 0.4 s gaps, looped, as MP3. */
function makeSpeech(dir: string): string {
  const speechDir = join(SHARED, 'speech');
  const clips = readdirSync(speechDir).filter((f) => f.endsWith('.wav')).sort();
  const parts: string[] = [];
  clips.forEach((f, i) => {
    const p = join(dir, `part${i}.wav`);
    ffmpeg('-i', join(speechDir, f), '-af', 'apad=pad_dur=0.4', '-ar', '44100', '-ac', '1', p);
    parts.push(`file '${p}'`);
  });
  const list = join(dir, 'list.txt');
  writeFileSync(list, parts.join('\n'));
  const out = join(dir, 'speech60.mp3');
  ffmpeg('-stream_loop', '-1', '-f', 'concat', '-safe', '0', '-i', list, '-t', String(CLIP_SEC), '-c:a', 'libmp3lame', '-b:a', '128k', out);
  return out;
}

function makeTalkingHead720p(dir: string): string {
  const out = join(dir, 'talking720p60.mp4');
  ffmpeg('-stream_loop', '-1', '-i', TALKING_HEAD, '-t', String(CLIP_SEC), '-vf', 'scale=1280:720:force_original_aspect_ratio=increase,crop=1280:720',
    '-c:v', 'libx264', '-preset', 'veryfast', '-c:a', 'aac', out);
  return out;
}

interface Case {
  name: string;
  gateSec: number;
  submit(client: VideoApiClient): Promise<{ video_id: string }>;
}

async function measure(client: VideoApiClient, c: Case) {
  let peak = 0;
  const sampler = setInterval(() => {
    const now = serviceRssMiB(ROOT);
    peak = Math.max(peak, now.workerd + now.media);
  }, 250);
  const t0 = performance.now();
  try {
    const { video_id } = await c.submit(client);
    const uploadSec = (performance.now() - t0) / 1000;
    // A fixed 250 ms poll: the client's backoff would add its own delay to the wall time.
    for (;;) {
      const status = await client.getStatus(video_id);
      if (status.status !== 'pending' && status.status !== 'processing') {
        const wallSec = (performance.now() - t0) / 1000;
        return { status: status.status, error: status.error_message ?? undefined, uploadSec, wallSec, peak };
      }
      if (performance.now() - t0 > MAX_WAIT_MS) return { status: 'timeout', error: undefined, uploadSec, wallSec: MAX_WAIT_MS / 1000, peak };
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    clearInterval(sampler);
  }
}

async function main() {
  const client = new VideoApiClient({ baseUrl: `http://127.0.0.1:${PORT}`, apiKey: devKey() });
  const dir = mkdtempSync(join(tmpdir(), 'bench-gates-'));
  try {
    const speech = makeSpeech(dir);
    const hd = makeTalkingHead720p(dir);
    const cases: Case[] = ([
      { name: 'speech', gateSec: 9, submit: (cl) => cl.analyzeVideo(speech, { filename: 'speech60.mp3' }) },
      { name: 'visual', gateSec: 60, submit: (cl) => cl.analyzeVideo(hd, { visualAnalytics: true, filename: 'talking720p60.mp4' }) },
      { name: 'blur', gateSec: 60, submit: (cl) => cl.processVideo({ file: hd, blurBackground: true, filename: 'talking720p60.mp4' }) },
    ] satisfies Case[]).filter((c) => !args.only || c.name === args.only);
    console.log(`service http://127.0.0.1:${PORT}, ${CLIP_SEC} s clips; idle load1 ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`);
    console.log('| case | status | upload s | wall s | RTF | gate s | pass | peak RSS MiB |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const c of cases) {
      const r = await measure(client, c);
      const pass = r.status === 'completed' && r.wallSec <= c.gateSec;
      console.log(`| ${c.name} | ${r.status}${r.error ? ` (${r.error})` : ''} | ${r.uploadSec.toFixed(1)} | ${r.wallSec.toFixed(1)} | ${(r.wallSec / CLIP_SEC).toFixed(2)} | ${c.gateSec} | ${pass ? 'yes' : 'NO'} | ${Math.round(r.peak)} |`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
