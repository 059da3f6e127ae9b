/**
 * @module bench/support/talking-heads
 * 60 s 1280×720 talking heads that are not the speed gate's clip: other speakers, framings, face
 * sizes, frame rates and encoders, built with Debian ffmpeg from ../shared/media (issue #37: the
 * vision step was slower on a held-out 720p talking head than on the gate clip). Sources and
 * licences: ../shared/media/MANIFEST.tsv (SadTalker's examples, clips of the HDTF set: repo
 * Apache-2.0, the footage's rights with its owners; LivePortrait's s20: repo MIT).
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ffmpeg, SHARED_MEDIA } from './media.js';

/** How one variant is framed and encoded. */
export interface TalkingHeadVariant {
  name: string;
  /** Clip under ../shared/media. */
  source: string;
  /** Height of the speaker's clip inside the 720p frame (width to its aspect); the rest is a plain background. */
  subjectPx: number;
  fps: 25 | 30;
  /** Encoder arguments after `-c:v`. */
  encoder: string[];
  /** What a reader needs to know about the encoding. */
  note: string;
}

const KATIE = 'talking_head/sadtalker_wda_katiehill.mp4';
const AOC = 'talking_head/sadtalker_wda_aoc.mp4';
const X264_HIGH = ['libx264', '-preset', 'medium', '-crf', '23'];

/**
 * The variants the vision profile compares. The speakers' clips are 512² head crops; set inside a
 * 720p frame at 720 px they read as a webcam head-and-shoulders shot, at 360 px as a presenter
 * further from the camera (the face ≈ 170 px high, ≈ 85 px in the 640 px frame the models see).
 */
export const TALKING_HEAD_VARIANTS: readonly TalkingHeadVariant[] = [
  {
    name: 'katie-720-x264-high-30',
    source: KATIE,
    subjectPx: 720,
    fps: 30,
    encoder: X264_HIGH,
    note: 'x264 medium, High, 3 B-frames, 30 fps',
  },
  {
    name: 'katie-720-x264-baseline-30',
    source: KATIE,
    subjectPx: 720,
    fps: 30,
    encoder: ['libx264', '-preset', 'fast', '-profile:v', 'baseline', '-crf', '23'],
    note: 'x264 fast, Baseline (no B-frames), 30 fps',
  },
  {
    name: 'katie-720-x264-ultrafast-25',
    source: KATIE,
    subjectPx: 720,
    fps: 25,
    encoder: ['libx264', '-preset', 'ultrafast', '-crf', '23'],
    note: 'x264 ultrafast (no B-frames, CAVLC, no deblock), 25 fps',
  },
  {
    name: 'katie-360-x264-high-30',
    source: KATIE,
    subjectPx: 360,
    fps: 30,
    encoder: X264_HIGH,
    note: 'small face (subject 360 px), x264 medium, High, 30 fps',
  },
  {
    name: 'aoc-360-x264-high-25',
    source: AOC,
    subjectPx: 360,
    fps: 25,
    encoder: X264_HIGH,
    note: 'small face (subject 360 px), x264 medium, High, 25 fps',
  },
  {
    name: 'katie-240-x264-high-30',
    source: KATIE,
    subjectPx: 240,
    fps: 30,
    encoder: X264_HIGH,
    note: 'smaller face still (subject 240 px), x264 medium, High, 30 fps',
  },
  {
    name: 'lp-s20-720-x264-high-30',
    source: 'gesture/liveportrait_s20_hands.mp4',
    subjectPx: 720,
    fps: 30,
    encoder: X264_HIGH,
    note: 'portrait upper body with hands in view (pillarboxed), x264 medium, High, 30 fps',
  },
  {
    name: 'katie-720-hevc-30',
    source: KATIE,
    subjectPx: 720,
    fps: 30,
    encoder: ['libx265', '-preset', 'fast', '-crf', '28', '-x265-params', 'log-level=error'],
    note: 'HEVC (x265 fast, B-frames), 30 fps',
  },
  {
    name: 'katie-720-vp9-30',
    source: KATIE,
    subjectPx: 720,
    fps: 30,
    encoder: ['libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '2M', '-row-mt', '1'],
    note: 'VP9 (libvpx realtime, no B-frames; alt-ref frames), 30 fps, WebM',
  },
];

/** The unseen-style clip the speed gate runs beside its own: see README "gates". */
export const GATE_UNSEEN_VARIANT = 'katie-360-x264-high-30';

/**
 * Builds (once per `dir`) 60 s of the variant with its speech, 1280×720: one pass of the speaker's
 * clip, scaled to `subjectPx` and set at the bottom centre of a plain studio-grey frame (as a
 * square or portrait video fills a wide one), encoded once and looped to a minute by stream copy
 * (seconds, not minutes, to build). Returns the file's path.
 */
export function talkingHeadVariant(dir: string, name: string): string {
  const v = TALKING_HEAD_VARIANTS.find((t) => t.name === name);
  if (!v) throw new Error(`unknown talking-head variant "${name}"`);
  const ext = v.encoder[0] === 'libvpx-vp9' ? 'webm' : 'mp4';
  const out = join(dir, `${v.name}.${ext}`);
  if (existsSync(out)) return out;
  const once = join(dir, `${v.name}-once.${ext}`);
  ffmpeg(
    '-i',
    join(SHARED_MEDIA, v.source),
    '-f',
    'lavfi',
    '-i',
    `color=c=0x4a5058:s=1280x720:r=${v.fps}`,
    '-filter_complex',
    `[0:v]fps=${v.fps},scale=-2:${v.subjectPx}[fg];` +
      '[1:v][fg]overlay=(W-w)/2:H-h:shortest=1,setsar=1,format=yuv420p[v]',
    '-map',
    '[v]',
    '-map',
    '0:a:0',
    '-c:v',
    ...v.encoder,
    '-c:a',
    ext === 'webm' ? 'libopus' : 'aac',
    once,
  );
  ffmpeg('-stream_loop', '-1', '-i', once, '-t', '60', '-c', 'copy', out);
  rmSync(once);
  return out;
}
