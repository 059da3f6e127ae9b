/**
 * @module bench/processing/run
 * Processing benchmark: wall time, real-time factor and peak RSS per render option on a 10 s
 * talking head and on 60 s of 720p (a talking head looped and scaled), plus a before/after
 * contact sheet per case in `bench/out/` (ffmpeg tile filter).
 *
 * Run: `npx tsx bench/processing/run.ts [--quick]` (--quick: the 10 s clip only).
 * Peak RSS is this Node process's (engines, models, frame buffers); ffmpeg children excluded.
 * Gate: blur of 60 s of 720p ≤ 60 s wall on 2 cores.
 * Eye contact: mean |gaze| before/after (`measureGaze`: Human's iris and pixel-located iris) on
 * a 5 s talking head with a turned head, plus a zoomed before/after sheet of the eyes.
 * Mouth driving from new speech (`10s speech+mouth`, embedded patch bank when SYNC_API_URL is
 * unset): `lip_sync.mode`, the mouth–speech-envelope correlation of the output versus the plain
 * fitted video (`10s speech-swap`), and a zoomed before/after sheet of the mouth.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHARED_MEDIA, talkingHead720p } from '../support/media.js';
import {
  renderVideo,
  defaultRenderEngines,
  parseRenderOptions,
} from '../../containers/media/engines/render/index.js';
import { measureGaze } from '../../containers/media/engines/gaze/index.js';
import { mouthSpeechCorrelation } from '../../containers/media/engines/mouth/index.js';

const OUT_DIR = join(process.cwd(), 'bench/out');
const SOURCE = join(SHARED_MEDIA, 'talking_head/sadtalker_wda_aoc.mp4');
const BLUR_GATE_SEC = 60;
/** Head turned ~8°, eyes ~46 px wide at 844²: the clip where correction has most to do. */
const GAZE_SOURCE = join(SHARED_MEDIA, 'talking_head/retalking_face2.mp4');
/** Eye band of GAZE_SOURCE (x, y, w, h in px), for the zoomed sheet. */
const GAZE_EYES_CROP = '240:80:270:330';
/** Mouth of SOURCE (512²), for the zoomed mouth sheet. */
const MOUTH_CROP = '200:140:200:290';

interface Case {
  clip: string;
  name: string;
  options: object;
  speech?: boolean;
}

function makeClips(dir: string) {
  const ten = join(dir, 'talking10s.mp4');
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-stream_loop',
    '-1',
    '-i',
    SOURCE,
    '-t',
    '10',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-c:a',
    'aac',
    ten,
  ]);
  const hd = talkingHead720p(dir, 60);
  const speech = join(dir, 'speech.wav');
  execFileSync('espeak-ng', [
    '-v',
    'en-us+m3',
    '-s',
    '160',
    '-w',
    speech,
    'Welcome to the processing benchmark. This sentence replaces the original audio, and the video is fitted to its length.',
  ]);
  return { ten, hd, speech };
}

function contactSheet(before: string, after: string, png: string, durationSec: number) {
  const step = Math.max(0.5, durationSec / 5);
  const row = (i: number) => `[${i}:v]fps=1/${step.toFixed(3)},scale=256:-2,tile=5x1[r${i}]`;
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-i',
    before,
    '-i',
    after,
    '-filter_complex',
    `${row(0)};${row(1)};[r0][r1]vstack`,
    '-frames:v',
    '1',
    png,
  ]);
}

/** Plain fitted (top) / mouth-driven (bottom) mouth at 8 moments, 2× zoom. */
function mouthSheet(before: string, after: string, png: string) {
  const row = (i: number) =>
    `[${i}:v]select='not(mod(n\\,30))',crop=${MOUTH_CROP},scale=iw*2:-1:flags=lanczos,tile=8x1[r${i}]`;
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-i',
    before,
    '-i',
    after,
    '-filter_complex',
    `${row(0)};${row(1)};[r0][r1]vstack`,
    '-frames:v',
    '1',
    png,
  ]);
}

/** Before (top) / after (bottom) eye band at 1, 2.5 and 4 s, 4× zoom. */
function eyeSheet(before: string, after: string, png: string) {
  const row = (i: number) =>
    `[${i}:v]select='eq(n\\,25)+eq(n\\,62)+eq(n\\,100)',crop=${GAZE_EYES_CROP},scale=iw*4:-1:flags=lanczos,tile=3x1[r${i}]`;
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-i',
    before,
    '-i',
    after,
    '-filter_complex',
    `${row(0)};${row(1)};[r0][r1]vstack`,
    '-frames:v',
    '1',
    png,
  ]);
}

async function main() {
  const quick = process.argv.includes('--quick');
  mkdirSync(OUT_DIR, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'bench-processing-'));
  const clips = makeClips(work);
  const cases: Case[] = [
    { clip: clips.ten, name: '10s normalize', options: {} },
    { clip: clips.ten, name: '10s speech-swap', options: {}, speech: true },
    { clip: clips.ten, name: '10s blur', options: { blur_background: true } },
    { clip: clips.ten, name: '10s lipsync-offset', options: { lip_sync_correction: true } },
    { clip: GAZE_SOURCE, name: '5s eye-contact', options: { eye_contact_correction: true } },
    {
      clip: GAZE_SOURCE,
      name: '5s eye-contact+blur',
      options: { eye_contact_correction: true, blur_background: true },
    },
    { clip: clips.ten, name: '10s speech+mouth', options: { lip_sync_correction: true }, speech: true },
  ];
  if (!quick) {
    cases.push({ clip: clips.hd, name: '720p60s normalize', options: {} });
    cases.push({ clip: clips.hd, name: '720p60s blur', options: { blur_background: true } });
  }
  const engines = defaultRenderEngines();
  const rows: string[] = [
    '| case | media s | wall s | RTF | peak RSS MB | stages ms |',
    '|---|---|---|---|---|---|',
  ];
  let gate = 'not run';
  const gazeRows = ['| measure | before | after |', '|---|---|---|'];
  let mouthLine = 'not run';
  let plainSpeechOut: string | undefined;
  for (const c of cases) {
    const dir = mkdtempSync(join(work, 'case-'));
    const t0 = performance.now();
    const { outputPath, report } = await renderVideo(
      {
        sourcePath: c.clip,
        speechPath: c.speech ? clips.speech : undefined,
        options: parseRenderOptions(JSON.stringify({ blur_background: false, ...c.options })),
        workDir: dir,
      },
      engines,
    );
    const wall = (performance.now() - t0) / 1000;
    const media = report.output.duration_sec;
    const rss = process.resourceUsage().maxRSS / 1024;
    rows.push(
      `| ${c.name} | ${media.toFixed(1)} | ${wall.toFixed(1)} | ${(wall / media).toFixed(2)} | ${rss.toFixed(0)} | ${JSON.stringify(report.stages_ms)} |`,
    );
    const slug = c.name.replace(/[^a-z0-9]+/gi, '-');
    contactSheet(c.clip, outputPath, join(OUT_DIR, `processing-${slug}.png`), media);
    if (c.name === '720p60s blur')
      gate = `${wall <= BLUR_GATE_SEC ? 'PASS' : 'FAIL'} (${wall.toFixed(1)} s ≤ ${BLUR_GATE_SEC} s)`;
    if (c.name === '5s eye-contact') {
      const [before, after] = [await measureGaze(c.clip), await measureGaze(outputPath)];
      gazeRows.push(
        `| Human iris | ${before.meanAbsDeg} | ${after.meanAbsDeg} |`,
        `| pixel-located iris | ${before.meanAbsDirectDeg} | ${after.meanAbsDirectDeg} |`,
      );
      eyeSheet(c.clip, outputPath, join(OUT_DIR, 'processing-eye-contact-eyes.png'));
      console.error('eye contact editor:', report.editors);
    }
    if (c.name === '10s speech-swap')
      copyFileSync(outputPath, (plainSpeechOut = join(work, 'plain-speech.mp4')));
    if (c.name === '10s speech+mouth' && plainSpeechOut) {
      const [before, after] = [
        await mouthSpeechCorrelation(plainSpeechOut, clips.speech),
        await mouthSpeechCorrelation(outputPath, clips.speech),
      ];
      mouthLine = `lip_sync ${JSON.stringify(report.lip_sync)}; mouth–envelope r: plain fitted ${before.r} → driven ${after.r} (${after.faces}/${after.frames} frames with a face)`;
      mouthSheet(plainSpeechOut, outputPath, join(OUT_DIR, 'processing-speech-mouth-zoom.png'));
      console.error('mouth editor:', report.editors);
    }
    if (c.name === '10s blur') copyFileSync(outputPath, join(OUT_DIR, 'processing-10s-blur.mp4'));
    console.error(`${c.name}: ${wall.toFixed(1)} s`, report.lip_sync ?? '', report.blur ?? '');
  }
  console.log(rows.join('\n'));
  console.log(`\nGate blur 60 s 720p: ${gate}`);
  console.log(`\nEye contact, mean |gaze| in degrees (${GAZE_SOURCE}):\n${gazeRows.join('\n')}`);
  console.log(`\nMouth driving (10 s speech+mouth): ${mouthLine}`);
  rmSync(work, { recursive: true, force: true });
}

await main();
