/**
 * @module bench/processing/clips
 * The 60 s 720p talking head the blur benches share, built once and kept between runs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SOURCE = '/work/shared/media/talking_head/sadtalker_wda_aoc.mp4';
const CLIP_DIR = join(tmpdir(), 'bench-blur-clips');

/** 60 s of 720p: the talking head looped and scaled (the recipe of bench/processing/run.ts). */
export function talkingHead720p60s(): string {
  mkdirSync(CLIP_DIR, { recursive: true });
  const hd = join(CLIP_DIR, 'talking720p60s.mp4');
  if (!existsSync(hd)) {
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-stream_loop',
      '-1',
      '-i',
      SOURCE,
      '-t',
      '60',
      '-vf',
      'scale=1280:720:force_original_aspect_ratio=increase,crop=1280:720',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-c:a',
      'aac',
      hd,
    ]);
  }
  return hd;
}
