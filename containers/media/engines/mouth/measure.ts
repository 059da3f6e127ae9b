/**
 * @module containers/media/engines/mouth/measure
 * Verification of mouth driving: the mouth-openness track of a video (face mesh on every
 * frame) correlated with a speech file's envelope, taken at each frame's time plus the
 * mouth-leads-audio offset. Used by the tests and the bench on the output and on the plain
 * fitted video.
 */
import { probeFile, spawnFfmpeg } from '../../core/ffmpeg.js';
import { MOUTH_LEADS_AUDIO_SEC } from '../lipsync/av-offset.js';
import { ENVELOPE_HZ, speechEnvelope } from '../lipsync/envelope.js';
import { createFaceTracker, mouthOpenness, type FaceTracker } from '../face-tracking/face-track.js';
import { readFrames } from '../frame-pipeline/frames.js';
import { frameLevels } from './target.js';

/** Pearson correlation over the pairs where both values are finite. */
export function pearson(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const xs: number[] = [],
    ys: number[] = [];
  for (let i = 0; i < Math.min(x.length, y.length); i++)
    if (Number.isFinite(x[i]) && Number.isFinite(y[i])) (xs.push(x[i]), ys.push(y[i]));
  const n = xs.length;
  if (n < 3) return NaN;
  const mx = xs.reduce((a, b) => a + b, 0) / n,
    my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0,
    sxx = 0,
    syy = 0;
  for (let i = 0; i < n; i++)
    ((sxy += (xs[i] - mx) * (ys[i] - my)), (sxx += (xs[i] - mx) ** 2), (syy += (ys[i] - my) ** 2));
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : 0;
}

/** Mouth openness per frame of `path` (NaN where no face), at `width` px wide. */
export async function mouthTrack(
  path: string,
  {
    width = 384,
    signal,
    judge = () => createFaceTracker({ iris: false }),
  }: { width?: number; signal?: AbortSignal; judge?: () => Promise<FaceTracker> } = {},
): Promise<{ fps: number; openness: number[] }> {
  const probe = await probeFile(path, signal);
  const v = probe.video;
  if (!v) throw new Error(`mouthTrack: ${path} has no video`);
  const fps = v.fps > 0 ? v.fps : 25;
  const w = Math.min(width, v.width) & ~1,
    h = Math.round((v.height * w) / v.width / 2) * 2;
  using tracker = await judge();
  using dec = spawnFfmpeg(
    ['-i', path, '-an', '-vf', `scale=${w}:${h},format=rgb24`, '-f', 'rawvideo', 'pipe:1'],
    signal,
  );
  dec.child.stdin.end();
  const openness: number[] = [];
  for await (const f of readFrames(dec.child.stdout, { width: w, height: h, channels: 3, fps })) {
    const face = await tracker.detect(f.data, w, h);
    openness.push(face ? mouthOpenness(face.mesh) : NaN);
  }
  await dec.done;
  return { fps, openness };
}

export interface MouthSpeechCorrelation {
  /** Pearson r of per-frame openness with the envelope level (dB) at frame time + lead. */
  r: number;
  frames: number;
  faces: number;
}

/** @example const { r } = await mouthSpeechCorrelation('out.mp4', 'speech.wav'); */
export async function mouthSpeechCorrelation(
  videoPath: string,
  speechPath: string,
  {
    leadSec = MOUTH_LEADS_AUDIO_SEC,
    signal,
    judge,
  }: { leadSec?: number; signal?: AbortSignal; judge?: () => Promise<FaceTracker> } = {},
): Promise<MouthSpeechCorrelation> {
  const { fps, openness } = await mouthTrack(videoPath, { signal, judge });
  const env = await speechEnvelope(speechPath, { signal });
  const levels = frameLevels(env, { fps, frames: openness.length, envelopeHz: ENVELOPE_HZ, leadSec });
  return {
    r: Math.round(pearson(openness, levels) * 1000) / 1000,
    frames: openness.length,
    faces: openness.filter(Number.isFinite).length,
  };
}
