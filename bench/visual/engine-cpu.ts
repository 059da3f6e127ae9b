/**
 * @module bench/visual/engine-cpu
 * CPU per frame of the vision engine as one pool worker runs it (`engine.observe`), on the
 * profile's 60 s 1280×720 talking head, plus what the face looks like: for A/B runs of one
 * engine setting at a time (each in its own process, since Human keeps its models per thread).
 *
 *   VISION_FACE_DETECTOR=blazeface-front npx tsx bench/visual/engine-cpu.ts [--clip FILE] [--out faces.json]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { decodeFrames } from '../../containers/media/engines/vision/frames.js';
import type { RgbFrame } from '../../containers/media/engines/vision/engines.js';
import { createHumanEngine } from '../../containers/media/engines/vision/human/engine.js';
import { mediaConfig } from '../../containers/media/core/config.js';
import { cpuMs, makeTalkingHeadClip } from './clip.js';

const { values: args } = parseArgs({
  options: { clip: { type: 'string' }, out: { type: 'string' }, passes: { type: 'string' } },
});
const dir = mkdtempSync(path.join(tmpdir(), 'vision-engine-cpu-'));
const clip = args.clip ?? path.join(dir, 'th_720p_60s.mp4');
if (!args.clip) makeTalkingHeadClip(clip);
const frames: RgbFrame[] = [];
for await (const f of decodeFrames(clip, { fps: mediaConfig().vision.fps })) frames.push(f);
rmSync(dir, { recursive: true, force: true });

const engine = await createHumanEngine();
for (const f of frames.slice(0, 3)) await engine.observe({ ...f, data: new Uint8Array(f.data) }); // warm-up
const cpuNow = cpuMs;
const passes = Number(args.passes ?? 2);
const faces: unknown[] = [];
let face = 0;
let pose = 0;
const cpu0 = cpuNow();
const t0 = performance.now();
for (let p = 0; p < passes; p++) {
  for (const f of frames) {
    const { observation, timings } = await engine.observe({ ...f, data: new Uint8Array(f.data) });
    face += timings.face;
    pose += timings.pose;
    if (p === 0)
      faces.push(
        observation.face
          ? {
              time: observation.time,
              box: observation.face.box,
              mesh: observation.face.mesh,
              rotation: observation.face.rotation,
            }
          : null,
      );
  }
}
const n = frames.length * passes;
const fmt = (v: number) => (v / n).toFixed(1);
console.log(
  `${process.env.VISION_FACE_DETECTOR ?? 'default'}: ${frames.length} frames × ${passes}: CPU ${fmt(cpuNow() - cpu0)} ms/frame, wall ${fmt(performance.now() - t0)} (face ${fmt(face)}, pose ${fmt(pose)}); faces ${faces.filter(Boolean).length}/${frames.length}`,
);
if (args.out) writeFileSync(args.out, JSON.stringify(faces));
