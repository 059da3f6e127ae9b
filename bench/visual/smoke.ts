/** Quick smoke run: npx tsx bench/visual/smoke.ts FILE [fps] */
import { analyzeVideo } from '../../containers/media/engines/vision/analyze.js';
import { disposeSharedVisionPool, sharedVisionPool } from '../../containers/media/engines/vision/pool.js';
const file = process.argv[2];
const fps = Number(process.argv[3] ?? 2);
const pool = sharedVisionPool();
const t0 = performance.now();
await pool.ready();
console.log('pool ready ms', Math.round(performance.now() - t0));
const run = analyzeVideo(file, { fps, pool });
for (let r = await run.next(); ; r = await run.next()) {
  if (r.done) {
    console.log(JSON.stringify(r.value));
    break;
  }
  const o = r.value;
  console.log(
    o.time,
    o.width,
    o.height,
    'pose',
    o.pose?.score,
    'nose',
    o.pose?.keypoints.nose?.y,
    'lw',
    o.pose?.keypoints.left_wrist?.y,
    'rw',
    o.pose?.keypoints.right_wrist?.y,
    'face',
    o.face?.score,
    o.face?.mesh.length,
    'hands',
    o.hands.map((h) => h.side + ':' + h.score).join(','),
  );
}
disposeSharedVisionPool();
