/**
 * @module bench/gates/run
 * The speed gates of issues #14 and #37 measured end to end through a running service (`npm start`):
 * upload → queue → Worker steps → media container → `completed`, timed by the client, beside the
 * floor every render pays (a native ffmpeg transcode of the same 720p file, in the same run).
 *
 *   npm start > service.log 2>&1 &    # then, when it listens:
 *   npx tsx bench/gates/run.ts --log service.log [--only speech,visual,visual-unseen,blur,all,floor] [--repeat N]
 *
 * PORT (default 8787) names the service. Cases (media built with Debian ffmpeg in a temp dir, from
 * ../shared/media):
 * - floor: `ffmpeg -y -i <60 s 720p> -c:v libx264 -preset superfast -crf 20 -c:a aac out.mp4`,
 *   timed by ffmpeg's own `-benchmark`, with Debian's ffmpeg and with the service's (`FFMPEG_BIN`)
 *   when that is another. A render case runs it right before each of its jobs and divides that
 *   job's wall by the faster of the two: its × floor is the median of these paired ratios, so a
 *   host whose speed drifts over the minutes of a round moves both sides of each ratio alike.
 * - speech: 60 s of real speech (44.1 kHz MP3), analysis without visual. Gate ≤ 9 s.
 * - visual: 60 s of 1280×720 talking head with its speech, visual_analytics=true. Gate RTF ≤ 0.25.
 * - visual-unseen: the same request on another speaker framed and encoded otherwise (smaller face
 *   on a plain background, 30 fps, x264 High with B-frames: `GATE_UNSEEN_VARIANT`,
 *   bench/support/talking-heads.ts), so the gate is not tuned to one clip. Gate RTF ≤ 0.25.
 * - blur: the same clip, process-video with blur_background only. Gate ≤ 1.3× floor.
 * - all: the same clip with every processing option: blur, eye contact, new speech spoken from a
 *   description by the built-in voice (voice_generator 0), mouth driving (lip_sync_correction),
 *   and the description's captions. Gate ≤ 3× floor.
 * After each job: its stage times (the Worker's step-time log lines, read from `--log`), CPU
 * seconds per service process role, and for renders what the processing report says took effect.
 * `--repeat N` runs each case N times; the table gives the median and the range.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { FFMPEG_BIN } from '../../containers/media/core/ffmpeg.js';
import type { VideoApiClient } from '../../src/client/index.js';
import { ffmpegBenchmark } from '../support/ffmpeg-benchmark.js';
import { floorTranscodeArgs, speechMp3, talkingHead720p } from '../support/media.js';
import { GATE_UNSEEN_VARIANT, talkingHeadVariant } from '../support/talking-heads.js';
import { BENCH_ROOT, serviceClient, timeJob, type JobRun } from '../support/service.js';
import { cpuByRole } from '../support/service-cpu.js';
import { rssPeaks } from '../support/service-rss.js';
import { spread, formatSpread } from '../support/stats.js';
import { logSize, parseStepTimes, readLogFrom, stageRows } from '../support/step-times.js';
import { describeGate, floorRatio, GATES, meetsGate, pairedFloorRatios, type Gate } from './gates.js';

const CLIP_SEC = 60;
/** A floor row's name: Debian's ffmpeg on PATH, or the service's own binary. */
const floorName = (bin: string) => (bin === 'ffmpeg' ? 'ffmpeg on PATH' : basename(bin));

const CASES = ['floor', 'speech', 'visual', 'visual-unseen', 'blur', 'all'] as const;
type CaseName = (typeof CASES)[number];
/** About a minute of speech for the built-in voice, so the new speech neither trims nor loops much of the clip. */
const ALL_DESCRIPTION =
  'Good morning, and thank you for joining this short update on the project. Over the last quarter the team rebuilt the way ' +
  'videos are analysed and rendered, so that every stage streams its frames instead of holding them in memory. The result is ' +
  'a service that answers faster, uses less memory, and costs less to run on the same two cores. We measured each stage on ' +
  'its own, from decoding and scaling to the models that find the face, the hands and the pose, and then the encoder that ' +
  'writes the final file. Where the numbers showed waste, we removed it. Background blur now costs little more than a plain ' +
  'encode, and the visual analytics run at a fraction of real time. There is still work ahead: the speech models can be ' +
  'faster, and the rendering of new speech with a moving mouth deserves the same care. Thank you for listening, and please ' +
  'send your questions and your measurements, because every number helps us decide what to improve next.';

const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    repeat: { type: 'string', default: '1' },
    log: { type: 'string', default: process.env.SERVICE_LOG },
  },
});

/** The cases asked for, in the table's order; a render case brings the floor its gate divides by. */
function selectedCases(only: string | undefined): CaseName[] {
  const asked = new Set(
    (only ?? CASES.join(','))
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  for (const name of asked)
    if (!(CASES as readonly string[]).includes(name))
      throw new Error(`--only: unknown case "${name}" (${CASES.join(', ')})`);
  if (asked.has('blur') || asked.has('all')) asked.add('floor');
  return CASES.filter((c) => asked.has(c));
}

interface Measured {
  name: CaseName;
  runs: JobRun[];
  cpuSec: number[];
  peakMiB: number[];
  /** Render cases: the floor timed right before each run (the faster binary's wall). */
  floorSec: number[];
  /** The 1-minute load average as each run started and ended: the machine's quiet beside each figure. */
  load: number[];
}

const RENDER_CASES: readonly CaseName[] = ['blur', 'all'];

const fmt = (v: number, digits = 1) => (Number.isFinite(v) ? v.toFixed(digits) : '–');

function printStages(
  name: string,
  i: number,
  repeat: number,
  run: JobRun,
  cpu: Map<string, number>,
  log: string | undefined,
  logFrom: number,
  load: number[],
) {
  console.log(
    `\n#### ${name}, run ${i + 1}/${repeat}: ${run.videoId}, ${run.status}, wall ${fmt(run.wallSec)} s, load1 ${load.map((l) => fmt(l)).join(' → ')}`,
  );
  if (log) {
    const steps = parseStepTimes(readLogFrom(log, logFrom), run.videoId);
    console.log('| stage | s | % of wall |\n|---|---|---|');
    for (const r of stageRows(steps, run.uploadSec, run.wallSec, run.status === 'completed'))
      console.log(`| ${r.stage} | ${fmt(r.sec)} | ${Math.round(r.share * 100)} |`);
    if (steps.length === 0)
      console.log('| (no step lines for this job in the log: is --log the output of this service?) | | |');
  } else {
    console.log("(stage times: pass --log <file holding npm start's output>)");
  }
  const total = [...cpu.values()].reduce((a, b) => a + b, 0);
  const parts = [...cpu.entries()]
    .filter(([, s]) => s >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([role, s]) => `${role} ${fmt(s)}`);
  console.log(
    `CPU s over the job by process: ${parts.join(' · ')} · total ${fmt(total)} (${fmt(total / run.wallSec, 2)} cores of 2)`,
  );
  const report = run.final?.processing_report;
  if (report) {
    const o = report.output;
    console.log(
      `render report: applied [${report.options_applied.join(', ')}]; lip sync ${report.lip_sync?.mode ?? 'none'}; captions ${report.captions ?? 'none'}; ` +
        `voice ${report.voice ? `${report.voice.engine}/${report.voice.voice_id}` : 'original'}; output ${o.width}×${o.height} ${fmt(o.duration_sec)} s (${o.fit})` +
        (report.notes.length ? `; notes: ${report.notes.join(' | ')}` : ''),
    );
  }
}

async function measureJob(
  client: VideoApiClient,
  name: CaseName,
  submit: (c: VideoApiClient) => Promise<{ video_id: string }>,
  i: number,
  repeat: number,
  m: Measured,
) {
  const logFrom = args.log ? logSize(args.log) : 0;
  m.load.push(loadavg()[0]);
  const rss = rssPeaks(BENCH_ROOT);
  const cpu = cpuByRole(BENCH_ROOT);
  const run = await timeJob(client, submit);
  const peak = rss.stop();
  const cpuSec = cpu.stop();
  m.load.push(loadavg()[0]);
  // The last step line (`result`) may reach the log just after the status turns.
  await new Promise((r) => setTimeout(r, 1000));
  printStages(name, i, repeat, run, cpuSec, args.log, logFrom, m.load.slice(-2));
  m.runs.push(run);
  m.cpuSec.push([...cpuSec.values()].reduce((a, b) => a + b, 0));
  m.peakMiB.push(peak.total);
}

async function main() {
  const repeat = Math.max(1, Number(args.repeat));
  const cases = selectedCases(args.only);
  const { client, baseUrl } = serviceClient();
  const dir = mkdtempSync(join(tmpdir(), 'bench-gates-'));
  try {
    const needsSpeech = cases.includes('speech');
    const speech = needsSpeech ? speechMp3(dir, CLIP_SEC) : '';
    const hd = talkingHead720p(dir, CLIP_SEC);
    const unseen = cases.includes('visual-unseen') ? talkingHeadVariant(dir, GATE_UNSEEN_VARIANT) : '';
    const submits: Record<
      Exclude<CaseName, 'floor'>,
      (c: VideoApiClient) => Promise<{ video_id: string }>
    > = {
      speech: (c) => c.analyzeVideo(speech, { filename: 'speech60.mp3' }),
      visual: (c) => c.analyzeVideo(hd, { visualAnalytics: true, filename: 'talking720p60.mp4' }),
      'visual-unseen': (c) =>
        c.analyzeVideo(unseen, { visualAnalytics: true, filename: `${GATE_UNSEEN_VARIANT}.mp4` }),
      blur: (c) => c.processVideo({ file: hd, blurBackground: true, filename: 'talking720p60.mp4' }),
      all: (c) =>
        c.processVideo({
          file: hd,
          filename: 'talking720p60.mp4',
          blurBackground: true,
          eyeContactCorrection: true,
          voiceGenerator: '0',
          description: ALL_DESCRIPTION,
          lipSyncCorrection: true,
        }),
    };
    console.log(
      `service ${baseUrl}, ${CLIP_SEC} s clips, ${repeat} run(s) per case; load1 at start ${loadavg()[0].toFixed(1)}${args.log ? `; step times from ${args.log}` : ''}`,
    );

    // The floor on Debian's ffmpeg (the issue's definition) and, when the service renders with
    // another binary (FFMPEG_BIN: the environment's ffmpeg 9), on that one too; gates divide by
    // the faster of the two, so a render never looks better for a slow floor.
    const floorBins = [...new Set(['ffmpeg', FFMPEG_BIN])];
    const floors = floorBins.map((bin) => ({ bin, wall: [] as number[], cpu: [] as number[] }));
    /** One floor transcode per binary; returns the faster wall. */
    const timeFloor = (label: string): number => {
      for (const floor of floors) {
        const cost = ffmpegBenchmark(floorTranscodeArgs(hd, join(dir, 'floor.mp4')), floor.bin);
        floor.wall.push(cost.wallMs / 1000);
        floor.cpu.push(cost.cpuMs / 1000);
        console.log(
          `\n#### floor (${floorName(floor.bin)}), ${label}: libx264 superfast crf 20 + aac, wall ${fmt(cost.wallMs / 1000)} s, CPU ${fmt(cost.cpuMs / 1000)} s`,
        );
      }
      return Math.min(...floors.map((f) => f.wall[f.wall.length - 1]));
    };
    const measured: Measured[] = [];
    for (const name of cases) {
      if (name === 'floor') {
        // Alone, the floor is timed `repeat` times; beside render cases, before each of their runs.
        if (!cases.some((c) => RENDER_CASES.includes(c)))
          for (let i = 0; i < repeat; i++) timeFloor(`run ${i + 1}/${repeat}`);
        continue;
      }
      const m: Measured = { name, runs: [], cpuSec: [], peakMiB: [], floorSec: [], load: [] };
      for (let i = 0; i < repeat; i++) {
        if (RENDER_CASES.includes(name)) m.floorSec.push(timeFloor(`before ${name} run ${i + 1}/${repeat}`));
        await measureJob(client, name, submits[name], i, repeat, m);
      }
      measured.push(m);
    }

    const floorSpreads = floors.map((f) => ({ ...f, spread: spread(f.wall) }));
    const timed = floorSpreads.filter((f) => f.spread.runs);
    const floorSec = timed.length ? Math.min(...timed.map((f) => f.spread.median)) : undefined;
    console.log(
      `\n## gates (${CLIP_SEC} s 1280×720 clips, visual-unseen: ${GATE_UNSEEN_VARIANT}; medians, range in brackets; load1 at end ${loadavg()[0].toFixed(1)})\n`,
    );
    console.log(
      '| case | status | runs | upload s | wall s | RTF | × floor | goal | pass | service CPU s | peak RSS MiB | load1 over the runs |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const f of timed) {
      console.log(
        `| floor (${floorName(f.bin)}: x264 superfast crf 20 + aac) | ok | ${f.spread.runs} | – | ${formatSpread(f.spread)} | ${fmt(f.spread.median / CLIP_SEC, 2)} | ${fmt(floorRatio(f.spread.median, floorSec), 2)} | – | – | ${formatSpread(spread(f.cpu))} | – | – |`,
      );
    }
    for (const m of measured) {
      const gate: Gate = GATES[m.name as keyof typeof GATES];
      const wall = spread(m.runs.map((r) => r.wallSec));
      const statuses = [...new Set(m.runs.map((r) => r.status + (r.error ? ` (${r.error})` : '')))].join(
        ', ',
      );
      const allCompleted = m.runs.every((r) => r.status === 'completed');
      // Render cases: each run against the floor timed just before it; others against the round's floor.
      const ratios = m.floorSec.length
        ? spread(
            pairedFloorRatios(
              m.runs.map((r) => r.wallSec),
              m.floorSec,
            ),
          )
        : spread([floorRatio(wall.median, floorSec)]);
      const verdict = m.floorSec.length
        ? meetsGate(gate, ratios.median, 1) // a ratio is a wall over a floor of 1
        : meetsGate(gate, wall.median, floorSec, CLIP_SEC);
      const pass = !allCompleted ? 'NO' : verdict === null ? '?' : verdict ? 'yes' : 'NO';
      console.log(
        `| ${m.name} | ${statuses} | ${wall.runs} | ${formatSpread(spread(m.runs.map((r) => r.uploadSec)))} | ${formatSpread(wall)} | ${fmt(wall.median / CLIP_SEC, 2)} | ` +
          `${formatSpread(ratios, 2)} | ${describeGate(gate, CLIP_SEC)} | ${pass} | ${formatSpread(spread(m.cpuSec))} | ${Math.round(Math.max(...m.peakMiB))} | ${fmt(Math.min(...m.load))}–${fmt(Math.max(...m.load))} |`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
