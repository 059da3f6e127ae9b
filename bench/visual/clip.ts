/**
 * @module bench/visual/clip
 * What the vision benches share: the speed gate's 60 s 1280×720 talking head (retalking_face1
 * looped, no audio) and this process's CPU time.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

export const CLIP_SEC = 60;
const SOURCE = path.join(import.meta.dirname, '../../../shared/media/talking_head/retalking_face1.mp4');

/** Writes the 60 s 720p talking head to `out` (H.264, veryfast). */
export function makeTalkingHeadClip(out: string): void {
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-stream_loop',
    '-1',
    '-i',
    SOURCE,
    '-t',
    String(CLIP_SEC),
    '-vf',
    'scale=1280:720,setsar=1',
    '-an',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    out,
  ]);
}

/** User + system CPU of this process (all its threads), in ms. */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
