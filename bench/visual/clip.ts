/**
 * @module bench/visual/clip
 * What the vision benches share: the decoder's own cost, the speed gate's 60 s 1280×720 talking head (the gates' clip,
 * bench/support/media.ts, without its audio) and this process's CPU time.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { mediaConfig } from '../../containers/media/core/config.js';
import { FFMPEG_BIN, probeFile } from '../../containers/media/core/ffmpeg.js';
import {
  decoderArgs,
  DEFAULT_FRAME_WIDTH_PX,
  frameFilter,
  skipNonReferenceWorthwhile,
} from '../../containers/media/engines/vision/frames.js';
import { ffmpegBenchmark, type FfmpegCost } from '../support/ffmpeg-benchmark.js';

export const CLIP_SEC = 60;
const SOURCE = path.join(import.meta.dirname, '../../../shared/media/talking_head/sadtalker_wda_aoc.mp4');

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
    'scale=1280:720:force_original_aspect_ratio=increase,crop=1280:720,setsar=1',
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

/**
 * ffmpeg's own cost for the decode the vision step runs on `clip` (the service's binary, its
 * decoder flags for this source's frame rate, the sampling filter), output discarded.
 */
export async function visionDecodeCost(clip: string, fps: number): Promise<FfmpegCost> {
  const sourceFps = (await probeFile(clip)).video?.fps ?? 0;
  return ffmpegBenchmark(
    [
      ...decoderArgs(mediaConfig().vision.fastDecode, skipNonReferenceWorthwhile(fps, sourceFps)),
      '-i',
      clip,
      '-map',
      '0:v:0',
      '-an',
      '-vf',
      frameFilter(fps, DEFAULT_FRAME_WIDTH_PX),
      '-pix_fmt',
      'rgb24',
      '-f',
      'rawvideo',
      '-y',
      '/dev/null',
    ],
    FFMPEG_BIN,
  );
}
