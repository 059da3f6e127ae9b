/**
 * @module containers/media/engines/lipsync/av-offset
 * Measures how late a clip's audio is versus its mouth movement: face mesh on every frame of
 * the first seconds (mouth openness track) against the speech envelope, cross-correlated.
 */
import type { ProbeResult } from '../../../../src/contract/media.js';
import { spawnFfmpeg } from '../../src/ffmpeg.js';
import { readFrames } from '../render/frames.js';
import { ENVELOPE_HZ, speechEnvelope } from './envelope.js';
import { createFaceTracker, mouthOpenness } from './face-track.js';
import { estimateLag, resample, type OffsetEstimate } from './offset.js';

/**
 * The mouth visibly opens before the sound it shapes starts (articulation leads voicing), so
 * onset cross-correlation reads in-sync clips as "audio late" by about this much. Calibrated on
 * two in-sync talking heads of ../shared/media (raw lags 206 ms and 92 ms); per-clip spread
 * around it is roughly ±60 ms, which bounds the absolute accuracy of the correction.
 */
export const MOUTH_LEADS_AUDIO_SEC = 0.15;

export interface AvOffsetOptions {
  /** Seconds analysed from the start. Default 8 (enough syllables; bounded cost). */
  maxSec?: number;
  /** Width of analysed frames in px. Default 384 (mouth still ~40 px wide in a talking head). */
  width?: number;
  /** Below this peak correlation, no shift is applied. Default 0.12. */
  minConfidence?: number;
  /** Subtracted from the raw lag. Default MOUTH_LEADS_AUDIO_SEC. */
  biasSec?: number;
  signal?: AbortSignal;
}

export interface AvOffsetResult extends OffsetEstimate {
  details: { raw_lag_ms: number; bias_ms: number; frames: number; faces: number; applied: boolean };
}

/** @example const { lagSec } = await measureAvOffset('/tmp/clip.mp4', probe); */
export async function measureAvOffset(path: string, probe: ProbeResult, { maxSec = 6, width = 320, minConfidence = 0.12, biasSec = MOUTH_LEADS_AUDIO_SEC, signal }: AvOffsetOptions = {}): Promise<AvOffsetResult> {
  const v = probe.video!;
  const fps = v.fps > 0 ? Math.min(v.fps, 60) : 25;
  const rotated = Math.abs(v.rotation) % 180 === 90;
  const [sw, sh] = rotated ? [v.height, v.width] : [v.width, v.height];
  const w = Math.min(width, sw) & ~1;
  const h = Math.round((sh * w) / sw / 2) * 2;
  using tracker = await createFaceTracker({ iris: false });
  using dec = spawnFfmpeg(['-i', path, '-an', '-t', String(maxSec), '-vf', `fps=${fps},scale=${w}:${h},format=rgb24`, '-f', 'rawvideo', 'pipe:1'], signal);
  dec.child.stdin.end();
  const open: number[] = [];
  let faces = 0;
  for await (const f of readFrames(dec.child.stdout, { width: w, height: h, channels: 3, fps })) {
    const face = await tracker.detect(f.data, w, h);
    open.push(face ? mouthOpenness(face.mesh) : NaN);
    if (face) faces++;
  }
  await dec.done;
  fillGaps(open);
  const env = await speechEnvelope(path, { maxSec, signal });
  const mouth = resample(open, fps, ENVELOPE_HZ);
  const est = faces >= 10 ? estimateLag(mouth, env, ENVELOPE_HZ) : { lagSec: 0, confidence: 0 };
  const applied = est.confidence >= minConfidence;
  return {
    lagSec: applied ? est.lagSec - biasSec : 0,
    confidence: Math.round(est.confidence * 1000) / 1000,
    details: { raw_lag_ms: Math.round(est.lagSec * 1000), bias_ms: Math.round(biasSec * 1000), frames: open.length, faces, applied },
  };
}

/** Linear interpolation over frames without a face (NaN), in place. */
function fillGaps(x: number[]): void {
  let last = -1;
  for (let i = 0; i <= x.length; i++) {
    if (i < x.length && Number.isNaN(x[i])) continue;
    const left = last >= 0 ? x[last] : i < x.length ? x[i] : 0;
    const right = i < x.length ? x[i] : left;
    for (let k = last + 1; k < i; k++) x[k] = left + ((right - left) * (k - last)) / (i - last);
    last = i;
  }
}
