/**
 * @module bench/visual/variants
 * The vision step on talking heads that are not the speed gate's clip (issue #37): per clip, the
 * decoder's own cost, the pool run as the container runs it, the per-model wall inside the
 * workers, and how many frames paid for each extra pass (the face found again on a head crop, the
 * hand model where a wrist is seen, and how many frames showed wrists only on the bottom edge, the
 * close-up hand pass where neither a wrist nor a face is).
 *
 *   npx tsx bench/visual/variants.ts [--only gate,katie-360-x264-high-30,…] [--fps 2] [--dir KEEP]
 *
 * Clips: `gate` (the gates' own, bench/support/media.ts) and `TALKING_HEAD_VARIANTS`, built in a
 * temp dir with Debian ffmpeg. `VISION_EDGE_WRISTS_EVERY_NTH=1` gives the hand-pass schedule as it
 * was before issue #37 (every frame with a wrist), for an A/B in one sitting. Wall times inflate on a shared machine: run it under the heavy lock
 * and read the load printed beside each row.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { FFMPEG_BIN, probeFile } from '../../containers/media/core/ffmpeg.js';
import { mediaConfig } from '../../containers/media/core/config.js';
import { handPassWanted, wristView } from '../../containers/media/engines/vision/hand-crop.js';
import { headCrop } from '../../containers/media/engines/vision/face-crop.js';
import { disposeSharedVisionPool, sharedVisionPool } from '../../containers/media/engines/vision/pool.js';
import { runVision } from '../../test/fixtures/visual/run-vision.js';
import { talkingHead720p } from '../support/media.js';
import { TALKING_HEAD_VARIANTS, talkingHeadVariant } from '../support/talking-heads.js';
import { cpuMs, visionDecodeCost } from './clip.js';

const { values: args } = parseArgs({
  options: { only: { type: 'string' }, fps: { type: 'string' }, dir: { type: 'string' } },
});
const fps = args.fps ? Number(args.fps) : mediaConfig().vision.fps;
const names = args.only
  ? args.only.split(',').map((s) => s.trim())
  : ['gate', ...TALKING_HEAD_VARIANTS.map((v) => v.name)];
/** `--dir`: build the clips there and keep them for the next run. */
const dir = args.dir ?? mkdtempSync(path.join(tmpdir(), 'vision-variants-'));
const fmt = (v: number, d = 1) => v.toFixed(d);

try {
  const clips = names.map((name) => ({
    name,
    file: name === 'gate' ? talkingHead720p(dir, 60) : talkingHeadVariant(dir, name),
  }));
  const pool = sharedVisionPool();
  await pool.ready();
  console.log(`${fps} fps sampled, ${pool.threads} pool workers, decoder ${FFMPEG_BIN}\n`);
  console.log(
    '| clip | video | decode wall / CPU s | vision wall s | RTF | CPU s | ms/frame in workers: face · pose · hands · crops · other | frames: face · head crop · wrist hand pass (wrists only on the edge) · close-up hand pass | load1 before → after |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const { name, file } of clips) {
    const load0 = loadavg()[0];
    const probe = await probeFile(file);
    const video = probe.video!;
    const sourceFps = video.fps ?? 0;
    const decode = await visionDecodeCost(file, fps);
    const c0 = cpuMs();
    const t0 = performance.now();
    const { frames, stats } = await runVision(file, { fps, pool });
    const wall = (performance.now() - t0) / 1000;
    const cpu = (cpuMs() - c0) / 1000;
    const m = stats.ms_per_frame;
    const faces = frames.filter((f) => f.face).length;
    const heads = frames.filter((f) => !f.face && headCrop(f.pose, f.width, f.height)).length;
    // The engine's own decisions, replayed from the observations (frame i is sample i).
    const views = frames.map((f) => wristView(f.pose, f.height));
    const wanted = frames.map((f, i) =>
      handPassWanted(f.pose, f.face, f.height, {
        closeups: mediaConfig().vision.closeupHands,
        sampleIndex: i,
        edgeEveryNth: mediaConfig().vision.edgeWristsEveryNth,
      }),
    );
    const wristPasses = wanted.filter((w, i) => w && views[i] !== 'none').length;
    const edgeFrames = views.filter((v) => v === 'edge').length;
    const closeups = wanted.filter((w, i) => w && views[i] === 'none').length;
    console.log(
      `| ${name} | ${video.codec} ${video.width}×${video.height} ${fmt(sourceFps, 0)} fps | ${fmt(decode.wallMs / 1000)} / ${fmt(decode.cpuMs / 1000)} | ${fmt(wall)} | ${fmt(wall / 60, 3)} | ${fmt(cpu)} | ` +
        `${fmt(m.face)} · ${fmt(m.pose)} · ${fmt(m.hands)} · ${fmt(m.handCrops)} · ${fmt(m.other)} | ${faces}/${frames.length} · ${heads} · ${wristPasses} (${edgeFrames}) · ${closeups} | ${fmt(load0)} → ${fmt(loadavg()[0])} |`,
    );
  }
  disposeSharedVisionPool();
} finally {
  if (!args.dir) rmSync(dir, { recursive: true, force: true });
}
