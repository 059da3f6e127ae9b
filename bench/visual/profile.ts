/**
 * @module bench/visual/profile
 * Per-stage profile of the vision step (issue #14): where the time and the CPU of one sampled
 * frame go, stage by stage, on the 60 s 1280×720 talking head the speed gate uses. Prints a
 * markdown table (docs/benchmarks.md, Visual analytics speed).
 *
 *   npx tsx bench/visual/profile.ts [--fps 2] [--clip FILE]
 *
 * Stages:
 * - decode + scale: ffmpeg alone (`-benchmark` user+sys CPU of the child), the same binary and
 *   arguments as `frames.ts`, output discarded;
 * - each model: Human in this thread (single-threaded wasm, like one pool worker), one config per
 *   model family run on every sampled frame; a sub-model's cost is the difference between
 *   consecutive configs (face detector → + mesh → + iris → + emotion);
 * - the engine as the pool runs it (`engine.observe`, hand gating and wrist crops included);
 * - transfer: pool round trip (postMessage of the frame, structured clone of the observation)
 *   minus the worker's own compute;
 * - analytics: `analyzeVisual` over the clip's compact frames.
 * Wall times inflate on a shared machine; CPU ms (`process.cpuUsage`, one busy thread) do not.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { analyzeVisual, compactFrame } from '../../src/analytics/visual/index.js';
import {
  decodeFrames,
  decoderArgs,
  DEFAULT_FRAME_WIDTH_PX,
  frameFilter,
} from '../../containers/media/engines/vision/frames.js';
import type { RgbFrame } from '../../containers/media/engines/vision/engines.js';
import { createHumanEngine } from '../../containers/media/engines/vision/human/engine.js';
import { loadHuman } from '../../containers/media/engines/vision/human/load.js';
import { mediaConfig } from '../../containers/media/core/config.js';
import { disposeSharedVisionPool, sharedVisionPool } from '../../containers/media/engines/vision/pool.js';
import { runVision } from '../../test/fixtures/visual/run-vision.js';
import { CLIP_SEC, cpuMs, makeTalkingHeadClip, visionDecodeCost } from './clip.js';

const { values: args } = parseArgs({ options: { fps: { type: 'string' }, clip: { type: 'string' } } });
const fps = args.fps ? Number(args.fps) : mediaConfig().vision.fps;

const dir = mkdtempSync(path.join(tmpdir(), 'vision-profile-'));
const clip = args.clip ?? path.join(dir, 'th_720p_60s.mp4');
if (!args.clip) makeTalkingHeadClip(clip);

interface Row {
  stage: string;
  runs: number;
  wallMs: number;
  cpuMs: number;
}
const rows: Row[] = [];
const cpuNow = cpuMs;

const frames: RgbFrame[] = [];
for await (const f of decodeFrames(clip, { fps })) frames.push(f);
const n = frames.length;
const decode = await visionDecodeCost(clip, fps);
rows.push({
  stage: `decode + scale (ffmpeg ${decoderArgs(mediaConfig().vision.fastDecode).join(' ')}, ${frameFilter(fps, DEFAULT_FRAME_WIDTH_PX)})`,
  runs: n,
  wallMs: decode.wallMs,
  cpuMs: decode.cpuMs,
});

const human = await loadHuman();
const tf = human.tf;
const off = { enabled: false };
const configs: Array<[string, Record<string, unknown>]> = [
  ['upload + image prep (no model)', { face: off, body: off, hand: off }],
  ['pose (movenet-lightning)', { face: off, body: { enabled: true }, hand: off }],
  [
    'face detector (blazeface)',
    { face: { enabled: true, mesh: off, iris: off, emotion: off }, body: off, hand: off },
  ],
  [
    '+ face mesh',
    { face: { enabled: true, mesh: { enabled: true }, iris: off, emotion: off }, body: off, hand: off },
  ],
  [
    '+ iris',
    {
      face: { enabled: true, mesh: { enabled: true }, iris: { enabled: true }, emotion: off },
      body: off,
      hand: off,
    },
  ],
  [
    '+ emotion',
    {
      face: { enabled: true, mesh: { enabled: true }, iris: { enabled: true }, emotion: { enabled: true } },
      body: off,
      hand: off,
    },
  ],
  ['hands, full frame (detector + landmarks)', { face: off, body: off, hand: { enabled: true } }],
];
const measured = new Map<string, { wallMs: number; cpuMs: number }>();
for (const [name, override] of configs) {
  // One warm-up pass per config: the first call of a shape compiles kernels and allocates.
  const warm = tf.tensor3d(frames[0].data, [frames[0].height, frames[0].width, 3], 'int32');
  await human.detect(warm, override);
  warm.dispose();
  const cpu0 = cpuNow();
  const t0 = performance.now();
  for (const f of frames) {
    const input = tf.tensor3d(f.data, [f.height, f.width, 3], 'int32');
    await human.detect(input, override);
    input.dispose();
  }
  measured.set(name, { wallMs: performance.now() - t0, cpuMs: cpuNow() - cpu0 });
}
let previous = measured.get(configs[0][0])!;
for (const [name] of configs) {
  const m = measured.get(name)!;
  const base = name.startsWith('+')
    ? previous
    : name === configs[0][0]
      ? { wallMs: 0, cpuMs: 0 }
      : measured.get(configs[0][0])!;
  rows.push({ stage: name, runs: n, wallMs: m.wallMs - base.wallMs, cpuMs: m.cpuMs - base.cpuMs });
  previous = m;
}
// Restore the engine's full config before it is used below (overrides persist in the instance).
await human.detect(tf.tensor3d(frames[0].data, [frames[0].height, frames[0].width, 3], 'int32'), {
  face: { enabled: true, mesh: { enabled: true }, iris: { enabled: true }, emotion: { enabled: true } },
  body: { enabled: true },
  hand: { enabled: true },
});

const engine = await createHumanEngine();
let handPasses = 0;
let cropPasses = 0;
{
  const cpu0 = cpuNow();
  const t0 = performance.now();
  for (const f of frames) {
    const { observation, timings } = await engine.observe({ ...f, data: new Uint8Array(f.data) });
    if (timings.hands > 0) handPasses++;
    cropPasses += observation.hands.filter((h) => (h as { source?: string }).source === 'wrist-crop').length;
  }
  rows.push({
    stage: `engine.observe, one thread (hand passes on ${handPasses}/${n} frames, ${cropPasses} hands from wrist crops)`,
    runs: n,
    wallMs: performance.now() - t0,
    cpuMs: cpuNow() - cpu0,
  });
}

// The pool as the container runs it: decode → 2 workers → observations in order.
const pool = sharedVisionPool();
await pool.ready();
const cpu0 = cpuNow();
const t0 = performance.now();
const { frames: observations, stats } = await runVision(clip, { fps, pool });
const poolWall = performance.now() - t0;
const poolCpu = cpuNow() - cpu0;
const workerMs =
  (stats.ms_per_frame.face +
    stats.ms_per_frame.pose +
    stats.ms_per_frame.hands +
    stats.ms_per_frame.handCrops +
    stats.ms_per_frame.other) *
  observations.length;
disposeSharedVisionPool();

const compact = observations.map(compactFrame);
{
  const c0 = cpuNow();
  const a0 = performance.now();
  analyzeVisual(compact, { fillers: [], pauses: [], positive: [], negative: [] });
  rows.push({
    stage: `analytics (analyzeVisual over all ${n} compact frames, once per job)`,
    runs: n,
    wallMs: performance.now() - a0,
    cpuMs: cpuNow() - c0,
  });
}
const transferBytes = Buffer.byteLength(JSON.stringify(compact));
rm();

const fmt = (v: number) => (Math.abs(v) < 1 && v !== 0 ? v.toFixed(2) : v.toFixed(1));
console.log(
  `\n${n} frames of ${CLIP_SEC} s 1280×720 at ${fps} fps; ${pool.threads} pool workers; load1 ${(await import('node:os')).loadavg()[0].toFixed(1)}\n`,
);
console.log('| stage | ms/frame wall | ms/frame CPU | CPU s per 60 s |');
console.log('|---|---|---|---|');
for (const r of rows)
  console.log(
    `| ${r.stage} | ${fmt(r.wallMs / r.runs)} | ${fmt(r.cpuMs / r.runs)} | ${fmt(r.cpuMs / 1000)} |`,
  );
console.log(
  `| pool run end to end (decode ∥ ${pool.threads} workers), wall ${fmt(poolWall / 1000)} s, RTF ${(poolWall / 1000 / CLIP_SEC).toFixed(2)} | ${fmt(poolWall / n)} | ${fmt(poolCpu / n)} | ${fmt(poolCpu / 1000)} |`,
);
const m = stats.ms_per_frame;
console.log(
  `| … inside the workers, ms/frame wall: face ${fmt(m.face)}, pose ${fmt(m.pose)}, hands ${fmt(m.hands)}, wrist crops ${fmt(m.handCrops)}, other ${fmt(m.other)} | ${fmt(m.face + m.pose + m.hands + m.handCrops + m.other)} | – | – |`,
);
console.log(
  `| pool transfer + queueing (round trip − worker compute, summed over workers) | ${fmt(Math.max(0, poolWall * pool.threads - workerMs) / n)} | – | – |`,
);
console.log(
  `\ncontainer → Worker: ${transferBytes} B of compact NDJSON (${Math.round(transferBytes / n)} B/frame)`,
);

function rm() {
  rmSync(dir, { recursive: true, force: true });
}
