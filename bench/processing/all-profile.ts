/**
 * @module bench/processing/all-profile
 * Where the every-option render's time goes, outside the service: one `renderVideo` of 60 s of
 * 1280×720 talking head with blur, eye contact, mouth driving from new speech (espeak-ng, ≈ 40 s)
 * and captions, then its stage times and the editors' own timers, plus CPU seconds of this
 * process and its children (ffmpeg, the segmenter).
 *
 * Run with the media service's V8 flags (scripts/start.mjs): `npx tsx --max-semi-space-size=64
 * --heap-growing-percent=100 bench/processing/all-profile.ts` (env as the service:
 * `EDIT_MESH_EVERY_NTH`, `ANALYSIS_MESH_LANES`, …); `--trace-gc` counts the collections. For
 * functions: `node --cpu-prof --import tsx bench/processing/all-profile.ts`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  defaultRenderEngines,
  parseRenderOptions,
  renderVideo,
} from '../../containers/media/engines/render/index.js';
import { talkingHead720p } from '../support/media.js';

const SENTENCE =
  'We keep talking for a while so that the mouth has plenty of work to do, with pauses, loud vowels and quiet endings. ';

/** CPU seconds (user+system) of this process and of its waited-for children. */
function cpuSec(): { self: number; children: number } {
  const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return { self: (Number(f[11]) + Number(f[12])) / 100, children: (Number(f[13]) + Number(f[14])) / 100 };
}

const dir = mkdtempSync(join(tmpdir(), 'all-profile-'));
try {
  const clip = talkingHead720p(dir, 60);
  const speech = join(dir, 'speech.wav');
  execFileSync('espeak-ng', ['-v', 'en-us+m3', '-s', '150', '-w', speech, SENTENCE.repeat(5)]);
  const options = parseRenderOptions(
    JSON.stringify({
      blur_background: true,
      eye_contact_correction: true,
      lip_sync_correction: true,
      captions: SENTENCE.repeat(5),
    }),
  );
  const c0 = cpuSec(),
    t0 = performance.now();
  const { report } = await renderVideo(
    { sourcePath: clip, speechPath: speech, options, workDir: dir },
    defaultRenderEngines(),
  );
  const wall = (performance.now() - t0) / 1000;
  const c1 = cpuSec();
  const editors = (report.editors ?? {}) as Record<string, Record<string, unknown>>;
  console.log(
    `every option, ${report.output.duration_sec.toFixed(1)} s of 720p out: wall ${wall.toFixed(1)} s, CPU ${(c1.self + c1.children - c0.self - c0.children).toFixed(1)} s (this process ${(c1.self - c0.self).toFixed(1)}, children ${(c1.children - c0.children).toFixed(1)})`,
  );
  console.log('stages ms', JSON.stringify(report.stages_ms));
  console.log('blur', JSON.stringify(report.blur));
  for (const [name, r] of Object.entries(editors)) console.log(name, JSON.stringify(r));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
