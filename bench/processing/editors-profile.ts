/**
 * @module bench/processing/editors-profile
 * Per-frame cost of the embedded frame editors (eye contact, mouth driving) at 720p, outside the
 * service: a 20 s 1280×720 talking head (the bench clip looped, scaled and cropped), decoded to
 * yuv420p exactly as the render's frames path does, fed through each editor's observe/edit as the
 * render loop does (lookahead held back), with init and the editors' own stage timers.
 *
 * Run: `flock /tmp/bench.lock nice -n 10 npx tsx bench/processing/editors-profile.ts [--sec 20] [--only gaze|mouth]`
 * Prints ms per output frame per editor and stage, on this (the service's main) thread; the face
 * mesh runs on a face-mesh thread unless `FACE_MESH_THREAD=0` (then it is on this thread too), so
 * its "wait" rows are what the main thread still loses to it, and the wall row is what counts.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeFile } from '../../containers/media/core/ffmpeg.js';
import { FrameCanvas } from '../../containers/media/engines/frame-pipeline/yuv.js';
import { decodeSourceFrames } from '../../containers/media/engines/frame-pipeline/source-frames.js';
import { planRender, type RenderPlan } from '../../containers/media/engines/frame-pipeline/plan.js';
import {
  editFrame,
  type FrameEditor,
  type YuvFrame,
} from '../../containers/media/engines/frame-pipeline/editors.js';
import { createWarpGazeEditor } from '../../containers/media/engines/gaze/index.js';
import { createMouthEditor } from '../../containers/media/engines/mouth/index.js';
import { talkingHead720p } from '../support/media.js';

const SPEECH_TEXT =
  'Welcome to the processing benchmark. This sentence replaces the original audio, and the video is fitted to its length. ' +
  'We keep talking for a while so that the mouth has plenty of work to do, with pauses, loud vowels and quiet endings.';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};

function makeInputs(dir: string, sec: number) {
  const clip = talkingHead720p(dir, sec);
  const speech = join(dir, 'speech.wav');
  execFileSync('espeak-ng', ['-v', 'en-us+m3', '-s', '150', '-w', speech, SPEECH_TEXT]);
  return { clip, speech };
}

/** Runs one editor over the plan's frames like the render loop; returns per-frame totals. */
async function drive(editor: FrameEditor, clip: string, plan: RenderPlan, loop: boolean) {
  const t0 = performance.now();
  const held: YuvFrame[] = [];
  const canvas = new FrameCanvas(plan.width, plan.height);
  let observeMs = 0,
    editMs = 0,
    frames = 0;
  const emit = async (f: YuvFrame) => {
    const t = performance.now();
    await editFrame([editor], canvas, f);
    editMs += performance.now() - t;
    frames++;
  };
  const decodeError = (err: unknown) => err as Error;
  for await (const f of decodeSourceFrames(clip, plan, { loop, decodeError })) {
    const t = performance.now();
    if (editor.observe) await editor.observe(f);
    observeMs += performance.now() - t;
    held.push(f);
    if (held.length > (editor.lookahead ?? 0)) await emit(held.shift()!);
  }
  while (held.length) await emit(held.shift()!);
  return { frames, observeMs, editMs, wallMs: performance.now() - t0 };
}

const per = (ms: number, frames: number) => (frames ? (ms / frames).toFixed(1) : '-');

async function main() {
  const sec = Number(arg('sec', '20'));
  const only = arg('only', 'all');
  const work = mkdtempSync(join(tmpdir(), 'editors-profile-'));
  try {
    const { clip, speech } = makeInputs(work, sec);
    const probe = await probeFile(clip);
    const rows: string[][] = [];
    if (only === 'all' || only === 'gaze') {
      const plan = planRender(probe, null);
      const t = performance.now();
      const editor = await createWarpGazeEditor();
      const initMs = performance.now() - t;
      const run = await drive(editor, clip, plan, false);
      const r = editor.report() as Record<string, number>;
      editor.dispose();
      const n = run.frames;
      rows.push(['gaze', 'init (models)', initMs.toFixed(0) + ' ms total', '']);
      rows.push(['gaze', 'observe (all)', per(run.observeMs, n), `${r.keyframes} keyframes`]);
      rows.push(['gaze', '  detection input (RGBA→RGB)', per(r.detect_input_ms, n), '']);
      rows.push([
        'gaze',
        '  waiting for face mesh + iris (Human)',
        per(r.detect_wait_ms, n),
        `${per(r.detect_ms, r.keyframes)} ms from request to answer per keyframe`,
      ]);
      rows.push(['gaze', 'edit (all)', per(run.editMs, n), `${r.eyes_warped} eyes warped`]);
      rows.push(['gaze', '  iris in pixels', per(r.iris_ms, n), '']);
      rows.push(['gaze', '  warp', per(r.warp_ms - r.iris_ms, n), '']);
      rows.push(['gaze', 'TOTAL per frame', per(run.observeMs + run.editMs, n), `${n} frames`]);
      rows.push(['gaze', 'WALL per frame', per(run.wallMs, n), 'decode to last edit']);
    }
    if (only === 'all' || only === 'mouth') {
      const speechProbe = await probeFile(speech);
      const plan = planRender(probe, speechProbe.duration_sec);
      const t = performance.now();
      const editor = await createMouthEditor({ sourcePath: clip, speechPath: speech, plan });
      const initMs = performance.now() - t;
      const run = await drive(editor, clip, plan, plan.fit === 'loop');
      const r = editor.report() as Record<string, number> & { analysis_stages_ms: Record<string, number> };
      editor.dispose();
      const n = run.frames;
      const a = r.analysis_stages_ms;
      rows.push([
        'mouth',
        'init (analysis pass + plan)',
        per(initMs, n),
        `${initMs.toFixed(0)} ms total, ${r.meshes} meshes`,
      ]);
      rows.push(['mouth', '  detection input (RGBA→RGB)', per(a.detect_input, n), '']);
      rows.push([
        'mouth',
        '  waiting for face mesh (Human)',
        per(a.mesh, n),
        `${per(a.mesh, r.meshes)} per mesh`,
      ]);
      rows.push(['mouth', '  patch cuts', per(a.cut, n), '']);
      rows.push(['mouth', '  decode + rest', per(r.analysis_ms - a.detect_input - a.mesh - a.cut, n), '']);
      rows.push(['mouth', '  envelope + selection', per(r.plan_ms, n), '']);
      rows.push(['mouth', 'edit (all)', per(run.editMs, n), `${r.edited} edited`]);
      rows.push(['mouth', '  fit + blend', per(r.blend_ms, n), '']);
      rows.push(['mouth', 'TOTAL per frame', per(initMs + run.editMs, n), `${n} frames`]);
      rows.push(['mouth', 'WALL per frame', per(initMs + run.wallMs, n), 'init + decode to last edit']);
    }
    console.log(
      `\n${sec} s of 1280×720 at 25 fps, ms per output frame (face mesh ${process.env.FACE_MESH_THREAD === '0' ? 'on the main thread' : 'on its own thread'})\n`,
    );
    console.log('| editor | stage | ms/frame | note |\n|---|---|---|---|');
    for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
