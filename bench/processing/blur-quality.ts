/**
 * @module bench/processing/blur-quality
 * What the blur keeps, as numbers. Two parts:
 * 1. Rendered frames (the measure of test/container/render.test.ts: variance of the Laplacian in
 *    a box, rendered ÷ source): background (lower = blurrier), face (eyes, nose, mouth) and the
 *    hair edge over the background (higher = sharper), on retalking_face2 (5 s, 844²) at 1–4 s
 *    and on 10 s of the 720p talking head at 2–8 s.
 * 2. Masks (no encode): the blur's masks (from the render's own mask decoder) against the
 *    segmenter run on every frame, every frame decoded (the best the model can do), on 10 s of
 *    the 720p talking head: mean absolute difference (0..255) and IoU
 *    of the person (mask ≥ 128), for the former hold + EMA at 4 masks/s (MaskTracker) and for the
 *    key masks with motion-aware blends (KeyMaskStream) at the current settings.
 *
 * Run: `flock /tmp/bench.lock npx tsx bench/processing/blur-quality.ts [--render-root DIR] [--masks-only]`
 * (`--render-root`: take renderVideo from another checkout, e.g. an export of the commit before,
 * to measure part 1 "before"; part 2 always runs in this tree; `--masks-only`: part 2 alone).
 * The key-mask settings come from the environment (BLUR_MASKS_PER_SEC, BLUR_MOTION_*).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { grayFrame, laplacianVariance } from '../../test/support/media-measures.js';
import { talkingHead720p60s } from './clips.js';
import { SHARED_MEDIA } from '../support/media.js';
import {
  createProcessSegmenter,
  KeyMaskStream,
  MaskTracker,
} from '../../containers/media/engines/segment/index.js';
import { probabilityToMask } from '../../containers/media/engines/segment/mask-tracker.js';
import { readRecords } from '../../containers/media/engines/frame-pipeline/frames.js';
import { blurKeyOptions, maskDecoderArgs } from '../../containers/media/engines/render/render.js';
import { decoderArgs } from '../../containers/media/engines/frame-pipeline/ffmpeg-args.js';
import { planRender } from '../../containers/media/engines/frame-pipeline/plan.js';
import { probeFile } from '../../containers/media/core/ffmpeg.js';

const FACE2 = join(SHARED_MEDIA, 'talking_head/retalking_face2.mp4');
const S = 422;
/** Boxes in fractions of the frame (x0, y0, x1, y1). */
const BOXES = {
  face2: { bg: [0.0, 0.0, 0.2, 0.25], face: [0.38, 0.35, 0.62, 0.6], hair: [0.3, 0.15, 0.7, 0.26] },
  hd: { bg: [0.0, 0.0, 0.2, 0.25], face: [0.38, 0.35, 0.62, 0.6], hair: [0.26, 0.05, 0.36, 0.4] },
};

async function renderBlur(root: string, source: string, workDir: string): Promise<string> {
  const mod = await import(join(root, 'containers/media/engines/render/index.ts'));
  const { outputPath } = await mod.renderVideo(
    {
      sourcePath: source,
      options: mod.parseRenderOptions(JSON.stringify({ blur_background: true })),
      workDir,
    },
    mod.defaultRenderEngines(),
  );
  return outputPath;
}

/** Mean rendered ÷ source Laplacian variance per box, over `times`. */
function ratios(source: string, rendered: string, boxes: Record<string, number[]>, times: number[]) {
  const out: Record<string, number> = {};
  for (const [name, box] of Object.entries(boxes)) {
    const rs = times.map(
      (t) =>
        laplacianVariance(grayFrame(rendered, t, S), S, box) /
        laplacianVariance(grayFrame(source, t, S), S, box),
    );
    out[name] = rs.reduce((a, b) => a + b, 0) / rs.length;
  }
  return out;
}

/**
 * RGB frames of `path` at w×h (the segmenter's input): every frame decoded (`all`, the truth's
 * input), or from the render's own mask decoder (which may skip non-reference frames).
 */
async function* smallFrames(path: string, w: number, h: number, all: boolean) {
  const plan = planRender(await probeFile(path), null);
  const size = { width: w, height: h };
  const dec = spawn('ffmpeg', [
    '-v',
    'error',
    ...(all
      ? decoderArgs(path, plan, { loop: false, ...size, pixFmt: 'rgb24', rough: true })
      : maskDecoderArgs(path, plan, false, size)),
  ]);
  yield* readRecords(dec.stdout, w * h * 3);
}

function agreement(truth: Uint8Array[], masks: Uint8Array[]) {
  let diff = 0,
    inter = 0,
    union = 0,
    n = 0;
  for (let f = 0; f < truth.length; f++) {
    const a = truth[f],
      b = masks[f];
    for (let i = 0; i < a.length; i++) {
      diff += Math.abs(a[i] - b[i]);
      const pa = a[i] >= 128,
        pb = b[i] >= 128;
      if (pa && pb) inter++;
      if (pa || pb) union++;
    }
    n += a.length;
  }
  return { meanAbsDiff: diff / n, iou: inter / union };
}

async function maskAgreement(path: string) {
  using seg = createProcessSegmenter();
  const { width, height } = planRender(await probeFile(path), null);
  seg.fitVideo?.(width, height); // the shape the render takes for this video
  const { inputWidth: w, inputHeight: h } = seg;
  const truth: Uint8Array[] = [],
    held: Uint8Array[] = [],
    keyed: Uint8Array[] = [];
  const tracker = new MaskTracker(seg, { everyNth: 6 }); // the former default: 4 masks/s at 25 fps
  const keys = blurKeyOptions(25);
  const stream = new KeyMaskStream(seg, keys, async (m) => void keyed.push(Uint8Array.from(m)));
  let i = 0;
  const rendered = smallFrames(path, w, h, false);
  for await (const rgb of smallFrames(path, w, h, true)) {
    truth.push(probabilityToMask(await seg.segment(rgb), w, h));
    held.push(Uint8Array.from(await tracker.next(i, tracker.needsInput(i) ? rgb : undefined)));
    const next = await rendered.next();
    if (!next.done) await stream.push(next.value);
    i++;
  }
  await stream.end();
  return {
    frames: i,
    held: { masks: tracker.segmentations, ...agreement(truth, held) },
    keyed: { masks: stream.keys, motion: stream.motionKeys, every: keys.every, ...agreement(truth, keyed) },
  };
}

async function main() {
  const at = process.argv.indexOf('--render-root');
  const root = at > 0 ? resolve(process.argv[at + 1]) : process.cwd();
  const work = mkdtempSync(join(tmpdir(), 'blur-quality-'));
  const hd10 = join(work, 'hd10.mp4');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', talkingHead720p60s(), '-t', '10', '-c', 'copy', hd10]);
  const rows = [
    '| clip | background ÷ (lower: blurrier) | face ÷ (higher: sharper) | hair edge ÷ (higher: sharper) |',
    '|---|---|---|---|',
  ];
  for (const [name, src, boxes, times] of process.argv.includes('--masks-only')
    ? []
    : ([
        ['retalking_face2 5 s 844²', FACE2, BOXES.face2, Array.from({ length: 17 }, (_, i) => 0.5 + i / 4)],
        ['talking head 10 s 720p', hd10, BOXES.hd, Array.from({ length: 33 }, (_, i) => 1 + i / 4)],
      ] as const)) {
    if (process.argv.includes('--first-only') && name !== 'retalking_face2 5 s 844²') continue;
    const dir = mkdtempSync(join(work, 'r-'));
    const r = ratios(src, await renderBlur(root, src, dir), boxes, [...times]);
    rows.push(`| ${name} | ${r.bg.toFixed(3)} | ${r.face.toFixed(3)} | ${r.hair.toFixed(3)} |`);
  }
  console.log(`Rendered frames (renderVideo from ${root}):\n${rows.join('\n')}\n`);
  const m = await maskAgreement(hd10);
  console.log(`Masks vs the segmenter on every frame (${m.frames} frames of 10 s 720p):`);
  console.log('| masks | segmenter runs | mean abs diff (0..255) | IoU person |\n|---|---|---|---|');
  console.log(
    `| hold + EMA, every 6th (former) | ${m.held.masks} | ${m.held.meanAbsDiff.toFixed(2)} | ${m.held.iou.toFixed(4)} |`,
  );
  console.log(
    `| key masks, every ${m.keyed.every} + ${m.keyed.motion} motion keys, blended | ${m.keyed.masks} | ${m.keyed.meanAbsDiff.toFixed(2)} | ${m.keyed.iou.toFixed(4)} |`,
  );
  rmSync(work, { recursive: true, force: true });
}

await main();
