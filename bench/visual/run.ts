/**
 * @module bench/visual/run
 * Vision benchmark: per clip detection rates, ms per frame per model, real-time factor, peak RSS,
 * and per-label accuracy against test/fixtures/visual/labels.json (raw landmark facts, plus the
 * derived labels of src/analytics/visual).
 *
 *   npx tsx bench/visual/run.ts [--fps 2] [--rtf-only] [--no-rtf]
 *
 * The RTF clip is the speed gate's 60 s 1280×720 talking head (./clip.ts), written to a temp dir.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { FrameObservation } from '../../src/contract/media.js';
import { analyzeVisual, compactFrame, frameHands } from '../../src/analytics/visual/index.js';
import { probeFile, spawnFfmpeg } from '../../containers/media/core/ffmpeg.js';
import { mediaConfig } from '../../containers/media/core/config.js';
import { disposeSharedVisionPool, sharedVisionPool } from '../../containers/media/engines/vision/pool.js';
import {
  frameAt,
  mediaPath,
  readLabels,
  runVision,
  type FrameLabel,
} from '../../test/fixtures/visual/run-vision.js';
import { makeTalkingHeadClip } from './clip.js';

const { values: args } = parseArgs({
  options: { fps: { type: 'string' }, 'rtf-only': { type: 'boolean' }, 'no-rtf': { type: 'boolean' } },
});
const fps = args.fps ? Number(args.fps) : mediaConfig().vision.fps;
const RTF_CLIP_SEC = 60;
const labels = readLabels();
const pool = sharedVisionPool();
const loadStart = performance.now();
await pool.ready();
console.log(
  `models loaded in ${pool.threads} worker(s): ${Math.round(performance.now() - loadStart)} ms; fps=${fps}`,
);

type Row = Record<string, string | number>;
const rows: Row[] = [];
const hits = new Map<string, { ok: number; n: number }>();
const score = (label: string, ok: boolean) => {
  const h = hits.get(label) ?? { ok: 0, n: 0 };
  h.ok += ok ? 1 : 0;
  h.n++;
  hits.set(label, h);
};
const pct = (a: number, b: number) => (b ? `${Math.round((100 * a) / b)}%` : '-');
const mb = () => Math.round(process.resourceUsage().maxRSS / 1024);
const jsonBytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
const hasAcceptedHand = (f: FrameObservation) => {
  const hands = frameHands(f);
  return hands.left !== null || hands.right !== null;
};

async function bench(name: string, file: string, sampleFps: number): Promise<FrameObservation[]> {
  const probe = await probeFile(file);
  const load = loadavg()[0];
  // CPU time of all our threads (workers included; ffmpeg is a child and not counted): unlike
  // wall time it does not inflate when other processes compete for the cores.
  const cpu0 = process.cpuUsage();
  const { frames, stats } = await runVision(file, { fps: sampleFps, pool });
  const cpu = process.cpuUsage(cpu0);
  const cpuMsPerFrame = Math.round((cpu.user + cpu.system) / 1000 / (frames.length || 1));
  const n = frames.length || 1;
  rows.push({
    clip: name,
    src: probe.video ? `${probe.video.width}x${probe.video.height}` : '?',
    sec: Math.round(probe.duration_sec * 10) / 10,
    frames: frames.length,
    pose: pct(stats.detected.pose, n),
    face: pct(stats.detected.face, n),
    hands: pct(stats.detected.hands, n),
    'hands ok': pct(frames.filter(hasAcceptedHand).length, n),
    'B/f full': Math.round(jsonBytes(frames) / n),
    'B/f compact': Math.round(jsonBytes(frames.map(compactFrame)) / n),
    'face ms': stats.ms_per_frame.face,
    'pose ms': stats.ms_per_frame.pose,
    'hand ms': stats.ms_per_frame.hands,
    // Extra hand passes on crops around wrists the full-frame pass missed (containers/media/engines/vision/hand-crop.ts).
    'crop ms': stats.ms_per_frame.handCrops,
    'crop hands': frames.reduce(
      (n, f) => n + f.hands.filter((h) => (h as { source?: string }).source === 'wrist-crop').length,
      0,
    ),
    'wall ms/f': stats.ms_per_frame.total_wall,
    'cpu ms/f': cpuMsPerFrame,
    // Projection for two otherwise idle cores: CPU time spread over both.
    'RTF idle2 est':
      probe.duration_sec > 0
        ? Math.round(((cpuMsPerFrame * frames.length) / 2 / 1000 / probe.duration_sec) * 100) / 100
        : '-',
    RTF: probe.duration_sec > 0 ? Math.round((stats.wall_ms / 1000 / probe.duration_sec) * 100) / 100 : '-',
    load1: Math.round(load * 10) / 10,
    'rss MB': mb(),
  });
  return frames;
}

function scoreFrame(
  frame: FrameObservation,
  sample: ReturnType<typeof analyzeVisual>['merged_visual_time_series'][number] | undefined,
  label: Omit<FrameLabel, 'time'>,
) {
  const pose = frame.pose?.keypoints;
  if (label.face_present != null) score('raw face_present', (frame.face !== null) === label.face_present);
  if (label.hand_visible != null) score('raw hand found', frame.hands.length > 0 === label.hand_visible);
  if (label.wrist_above_nose != null && pose?.nose) {
    const above = [pose.left_wrist, pose.right_wrist].some((w) => w && w.score > 0.3 && w.y < pose.nose.y);
    score('raw wrist_above_nose', above === label.wrist_above_nose);
  }
  if (!sample) return;
  const gestures = [sample.gesture_left, sample.gesture_right];
  if (label.raised_hand != null) score('raised_hand', sample.raised_hand === label.raised_hand);
  if (label.open_palm != null)
    score('open_hand (either side)', gestures.includes('open_hand') === label.open_palm);
  if (label.pointing != null || label.pinch != null) {
    score(
      'pinch_or_point (either side)',
      gestures.includes('pinch_or_point') === Boolean(label.pointing || label.pinch),
    );
  }
  if (label.gesture_hand_side && (label.open_palm || label.pointing || label.pinch)) {
    const field = label.gesture_hand_side === 'left' ? sample.gesture_left : sample.gesture_right;
    score('gesture on labelled side', field === (label.open_palm ? 'open_hand' : 'pinch_or_point'));
  }
  if (label.no_hand_gesture != null) {
    score(
      'no hand gesture',
      (sample.gesture_left === 'none' && sample.gesture_right === 'none') === label.no_hand_gesture,
    );
  }
  if (label.looking_at_camera != null)
    score('gaze_direction_x center', (sample.gaze_direction_x === 'center') === label.looking_at_camera);
}

if (!args['rtf-only']) {
  for (const item of labels.items) {
    const file = mediaPath(labels, item.media);
    if (!file) continue;
    const frames = await bench(item.media, file, item.kind === 'image' ? 1 : (item.fps ?? fps));
    const series = analyzeVisual(frames, {
      fillers: [],
      pauses: [],
      positive: [],
      negative: [],
    }).merged_visual_time_series;
    const sampleAt = (t: number) => series.find((s) => Math.abs(s.time - t) < 1e-6);
    if (item.frames) {
      for (const label of item.frames) {
        const frame = frameAt(frames, label.time);
        scoreFrame(frame, sampleAt(frame.time), label);
      }
    } else if (item.clip) {
      for (const frame of frames) scoreFrame(frame, sampleAt(frame.time), item.clip);
    }
  }
}

/**
 * Eyes on the clips labelled as blinking (the container test's rule, at 10 fps): median
 * eye_openness, and blinks = separate runs of samples below half the median.
 */
const eyeRows: Row[] = [];
if (!args['rtf-only']) {
  for (const media of ['talking_head/retalking_face3.mp4', 'talking_head/sadtalker_wda_aoc.mp4']) {
    const file = mediaPath(labels, media);
    if (!file) continue;
    const { frames } = await runVision(file, { fps: 10, pool });
    const open = analyzeVisual(frames, {
      fillers: [],
      pauses: [],
      positive: [],
      negative: [],
    }).merged_visual_time_series.map((s) => s.eye_openness);
    const median = [...open].sort((a, b) => a - b)[Math.floor(open.length / 2)] ?? 0;
    const blinks = open.filter((v, i) => v < 0.5 * median && !(open[i - 1] < 0.5 * median)).length;
    eyeRows.push({
      clip: media,
      samples: open.length,
      'face found': pct(frames.filter((f) => f.face).length, frames.length),
      'median eye_openness': Math.round(median * 1000) / 1000,
      blinks,
    });
  }
}

if (!args['no-rtf']) {
  const dir = mkdtempSync(path.join(tmpdir(), 'vision-bench-'));
  try {
    const src = mediaPath(labels, 'talking_head/sadtalker_wda_aoc.mp4');
    const out = path.join(dir, 'th_720p_60s.mp4');
    // The gates' own clip when the shared media is here (the RTF the speed gate measures).
    if (src) makeTalkingHeadClip(out);
    else {
      using proc = spawnFfmpeg([
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=1280x720:rate=30',
        '-t',
        String(RTF_CLIP_SEC),
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-y',
        out,
      ]);
      proc.child.stdin.end();
      await proc.done;
    }
    await bench(`720p ${RTF_CLIP_SEC}s (${src ? 'the gate clip' : 'test pattern'})`, out, fps);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

disposeSharedVisionPool();
console.table(rows);
if (eyeRows.length) console.table(eyeRows);
if (hits.size) {
  console.table(
    [...hits].map(([label, h]) => ({ label, correct: h.ok, labelled: h.n, accuracy: pct(h.ok, h.n) })),
  );
}
