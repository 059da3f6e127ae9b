/**
 * @module bench/processing/blur
 * The blur render alone (renderVideo, no HTTP) on 60 s of 720p talking head, beside the floor
 * every render pays: a native `ffmpeg -c:v libx264 -preset superfast -crf 20 -c:a aac` transcode
 * of the same file, in the same run. Plus a per-stage profile of the blur path, each stage run
 * on its own (wall and CPU seconds): decode at mask size, the segmenter per mask, the composite
 * and encode with a constant mask (no segmenter; the masks' transfer is in it: 1.5 bytes per mask
 * pixel per frame), and the whole render.
 *
 * Run: `flock /tmp/bench.lock npx tsx bench/processing/blur.ts [--runs N] [--render-root DIR
 * [--alternate]] [--render-only] [--clip FILE]` (N renders, median; DIR: renderVideo from another checkout, e.g.
 * an export of the commit before, or with `--alternate` this tree's and DIR's in turns;
 * `--render-only`: the floor and the renders, no stages; FILE: another clip instead of the talking
 * head, e.g. one without B-frames, as phones record).
 * CPU is user+system of this process and its children (/proc/self/stat), so "cpu s" of the
 * render counts ffmpeg, the segmenter process and Node.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  defaultRenderEngines,
  parseRenderOptions,
  renderVideo,
} from '../../containers/media/engines/render/index.js';
import { encoderArgs } from '../../containers/media/engines/frame-pipeline/ffmpeg-args.js';
import { yuv420pMask } from '../../containers/media/engines/frame-pipeline/frames.js';
import { planRender } from '../../containers/media/engines/frame-pipeline/plan.js';
import { FFMPEG_BIN, probeFile } from '../../containers/media/core/ffmpeg.js';
import { maskDecoderArgs } from '../../containers/media/engines/render/render.js';
import { createProcessSegmenter } from '../../containers/media/engines/segment/index.js';
import { talkingHead720p60s } from './clips.js';
import { floorTranscodeArgs } from '../support/media.js';

/** The segmenter's input size for this video (as the render chooses it: docs/benchmarks.md, Blur speed and quality). */
function maskSize(plan: ReturnType<typeof planRender>): { w: number; h: number } {
  using s = createProcessSegmenter();
  s.fitVideo?.(plan.width, plan.height);
  return { w: s.inputWidth, h: s.inputHeight };
}

/** CPU seconds (user+system) of this process and its waited-for children. */
function cpuSec(): number {
  const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  // Fields 14–17 of stat (utime, stime, cutime, cstime) are 11–14 after the ") " split.
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
}

async function measure<T>(fn: () => Promise<T>): Promise<{ wall: number; cpu: number; value: T }> {
  const c0 = cpuSec(),
    t0 = performance.now();
  const value = await fn();
  return { wall: (performance.now() - t0) / 1000, cpu: cpuSec() - c0, value };
}

function run(
  bin: string,
  args: string[],
  stdin?: (w: NodeJS.WritableStream) => Promise<void>,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const p = spawn(bin, args, { stdio: ['pipe', 'ignore', 'inherit'] });
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${bin} exited ${code}`))));
    if (stdin) stdin(p.stdin).then(() => p.stdin.end(), reject);
    else p.stdin.end();
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * The blur path's stages, each on its own: decode at mask size, the segmenter, composite + encode,
 * with the render's own ffmpeg (FFMPEG_BIN; the floor is Debian's, as in docs/benchmarks.md's table).
 */
async function stages(
  hd: string,
  plan: ReturnType<typeof planRender>,
  audioCodec: string | null,
  work: string,
): Promise<Array<[string, number, number, string]>> {
  const rows: Array<[string, number, number, string]> = [];
  const { w: mw, h: mh } = maskSize(plan);
  const decode = await measure(() =>
    run(FFMPEG_BIN, [
      '-v',
      'error',
      ...maskDecoderArgs(hd, plan, false, { width: mw, height: mh }).slice(0, -1),
      '-y',
      '/dev/null',
    ]),
  );
  rows.push([
    'stage: decode at mask size',
    decode.wall,
    decode.cpu,
    `${mw}×${mh} rgb24, the render's decoder`,
  ]);

  // The segmenter process alone: N images through it, two in flight (as the render keeps them).
  const N = 100;
  const rgb = new Uint8Array(mw * mh * 3).map((_, i) => (i * 7) % 251);
  const seg = await measure(async () => {
    const s = createProcessSegmenter();
    s.fitVideo?.(plan.width, plan.height);
    const maps: Promise<Float32Array>[] = [];
    for (let i = 0; i < N; i++) maps.push(s.segment(rgb));
    await Promise.all(maps);
    s.dispose();
    await new Promise((r) => setTimeout(r, 200)); // reaped: its CPU counts in cutime
  });
  rows.push([
    `stage: segmenter process, ${N} masks`,
    seg.wall,
    seg.cpu,
    `${((seg.wall * 1000) / N).toFixed(1)} ms wall per mask incl. start`,
  ]);

  // The composite + encode alone: the blur graph with one constant mask (a centred person-sized box).
  const gray = new Uint8Array(mw * mh);
  for (let y = Math.round(mh * 0.15); y < mh; y++)
    for (let x = Math.round(mw * 0.27); x < mw - Math.round(mw * 0.27); x++) gray[y * mw + x] = 255;
  const mask = yuv420pMask(gray, mw, mh);
  const frames = Math.round(plan.durationSec * plan.fps);
  const composite = await measure(() =>
    run(
      FFMPEG_BIN,
      [
        '-hide_banner',
        '-nostdin',
        '-loglevel',
        'error',
        ...encoderArgs({
          plan,
          video: { kind: 'file', path: hd, loop: false },
          mask: { kind: 'pipe', width: mw, height: mh },
          audio: { kind: 'source', path: hd, lagSec: 0, codec: audioCodec },
          output: join(work, 'composite.mp4'),
        }),
      ],
      async (w) => {
        for (let i = 0; i < frames; i++) if (!w.write(mask)) await new Promise((r) => w.once('drain', r));
      },
    ),
  );
  rows.push(['stage: composite + encode (constant mask)', composite.wall, composite.cpu, 'no segmenter']);

  return rows;
}

interface RenderModule {
  defaultRenderEngines: typeof defaultRenderEngines;
  parseRenderOptions: typeof parseRenderOptions;
  renderVideo: typeof renderVideo;
}
interface RenderRun {
  wall: number;
  cpu: number;
  blur: unknown;
  stages: unknown;
}

/** One blur render of `hd` by `mod`, timed. */
async function renderBlur(mod: RenderModule, hd: string, work: string): Promise<RenderRun> {
  const dir = mkdtempSync(join(work, 'render-'));
  const r = await measure(() =>
    mod.renderVideo(
      {
        sourcePath: hd,
        options: mod.parseRenderOptions(JSON.stringify({ blur_background: true })),
        workDir: dir,
      },
      mod.defaultRenderEngines(),
    ),
  );
  rmSync(dir, { recursive: true, force: true });
  return { wall: r.wall, cpu: r.cpu, blur: r.value.report.blur, stages: r.value.report.stages_ms };
}

async function main() {
  const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 1;
  const clipAt = process.argv.indexOf('--clip');
  const hd = clipAt > 0 ? resolve(process.argv[clipAt + 1]) : talkingHead720p60s();
  const work = mkdtempSync(join(tmpdir(), 'bench-blur-'));
  const probe = await probeFile(hd);
  const plan = planRender(probe, null);
  const rows: Array<[string, number, number, string]> = [];
  const notes: string[] = [];

  const floor = await measure(() =>
    run('ffmpeg', ['-v', 'error', ...floorTranscodeArgs(hd, join(work, 'floor.mp4'))]),
  );
  rows.push(['floor: native transcode', floor.wall, floor.cpu, '']);

  if (!process.argv.includes('--render-only'))
    rows.push(...(await stages(hd, plan, probe.audio?.codec ?? null, work)));

  // `--render-root DIR`: the render from another checkout (an export of the commit before), same
  // clip and floor; with `--alternate`, this tree's render and DIR's take turns (A B A B …).
  const at = process.argv.indexOf('--render-root');
  const other: RenderModule | null =
    at > 0
      ? await import(join(resolve(process.argv[at + 1]), 'containers/media/engines/render/index.ts'))
      : null;
  const here: RenderModule = { defaultRenderEngines, parseRenderOptions, renderVideo };
  const sides: Array<[string, RenderModule]> = !other
    ? [['this tree', here]]
    : process.argv.includes('--alternate')
      ? [
          ['this tree', here],
          [process.argv[at + 1], other],
        ]
      : [[process.argv[at + 1], other]];
  const renders = sides.map(() => [] as RenderRun[]);
  for (let i = 0; i < runs; i++)
    for (const [s, [, mod]] of sides.entries()) renders[s].push(await renderBlur(mod, hd, work));
  for (const [s, [name]] of sides.entries()) {
    const walls = renders[s].map((x) => x.wall);
    const blur = renders[s].find((r) => r.wall === median(walls))!;
    rows.push([`render: blur, ${name} (median of ${runs})`, blur.wall, blur.cpu, JSON.stringify(blur.blur)]);
    notes.push(
      `${name}: render walls ${walls.map((w) => w.toFixed(1)).join(', ')} s, cpu ${renders[s].map((r) => r.cpu.toFixed(1)).join(', ')} s; stages_ms ${JSON.stringify(blur.stages)}`,
    );
  }

  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(
    `60 s 720p talking head (${plan.width}×${plan.height}, ${plan.fps} fps); load average at the end: ${load}\n`,
  );
  console.log('| step | wall s | cpu s | × floor | note |\n|---|---|---|---|---|');
  for (const [name, wall, cpu, note] of rows)
    console.log(
      `| ${name} | ${wall.toFixed(1)} | ${Number.isNaN(cpu) ? '–' : cpu.toFixed(1)} | ${(wall / floor.wall).toFixed(2)} | ${note} |`,
    );
  console.log(`\n${notes.join('\n')}`);
  rmSync(work, { recursive: true, force: true });
}

await main();
