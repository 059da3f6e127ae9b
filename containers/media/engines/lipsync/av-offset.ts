/**
 * @module containers/media/engines/lipsync/av-offset
 * Measures how late a clip's audio is versus its mouth movement: face mesh on the frames of the
 * first seconds (outer-lip opening track) against the F2-band speech envelope, cross-correlated
 * (see ./offset.ts for the estimator and its confidence).
 */
import type { ProbeResult } from '../../../../src/contract/media.js';
import { spawnFfmpeg } from '../../core/ffmpeg.js';
import { readFrames } from '../frame-pipeline/frames.js';
import { ENVELOPE_HZ, F2_BAND_HZ, floorEnvelope, speechEnvelope } from './envelope.js';
import { createFaceTracker, outerLipOpening } from '../face-tracking/face-track.js';
import { estimateLag, resample, type OffsetEstimate } from './offset.js';

/**
 * The mouth visibly opens before the sound it shapes starts (articulation leads voicing). Used
 * by the mouth driver (../mouth) to place mouth shapes ahead of the speech that drives them.
 */
export const MOUTH_LEADS_AUDIO_SEC = 0.15;

/**
 * Raw lag this estimator reads on in-sync real speech: the mouth's movement leads the F2 energy
 * it shapes. Calibrated on the two real (HDTF) talking heads of ../shared/media/talking_head
 * (120 and 150 ms). AI lip-synced clips read -80…+50 ms (generators do not anticipate the
 * sound), so the absolute accuracy of a correction is about ±100 ms across sources; the
 * *change* in lag (an added delay) is read to ±10 ms.
 */
export const IN_SYNC_LAG_SEC = 0.13;

/**
 * Below this confidence no shift is applied. On 5–8 s clips, mismatched mouth/audio pairs
 * (39 pairs: one clip's mouth against another clip's speech) reached at most 0.18; in-sync
 * real footage reads 0.4–0.46.
 */
export const MIN_CONFIDENCE = 0.2;

/** Frames analysed per second: mouth movement is below 8 Hz, so 25 fps is plenty and bounds cost. */
export const ANALYSIS_FPS = 25;

export interface AvOffsetOptions {
  /** Seconds analysed from the start. Default 8 (enough syllables; ~200 face-mesh passes). */
  maxSec?: number;
  /** Width of analysed frames in px. Default 320 (mouth still ~40 px wide in a talking head). */
  width?: number;
  /** Below this confidence, no shift is applied. Default MIN_CONFIDENCE. */
  minConfidence?: number;
  /** Raw lag read when in sync; subtracted from the raw lag. Default IN_SYNC_LAG_SEC. */
  biasSec?: number;
  signal?: AbortSignal;
}

export interface AvOffsetResult extends OffsetEstimate {
  details: {
    raw_lag_ms: number;
    bias_ms: number;
    peak_r: number;
    min_confidence: number;
    frames: number;
    faces: number;
    applied: boolean;
  };
}

/**
 * `lagSec` is the shift to apply (0 unless `details.applied`): positive means the audio is late.
 * @example const { lagSec } = await measureAvOffset('/tmp/clip.mp4', probe);
 */
export async function measureAvOffset(
  path: string,
  probe: ProbeResult,
  {
    maxSec = 8,
    width = 320,
    minConfidence = MIN_CONFIDENCE,
    biasSec = IN_SYNC_LAG_SEC,
    signal,
  }: AvOffsetOptions = {},
): Promise<AvOffsetResult> {
  const v = probe.video!;
  const rotated = Math.abs(v.rotation) % 180 === 90;
  const [sw, sh] = rotated ? [v.height, v.width] : [v.width, v.height];
  const w = Math.min(width, sw) & ~1;
  const h = Math.round((sh * w) / sw / 2) * 2;
  // fps with start_time=0 samples the frame shown at k/25 s on the file's timeline (true PTS,
  // whatever the source's rate, VFR or start offset), the origin the envelope uses too.
  const vf = `fps=${ANALYSIS_FPS}:start_time=0:round=near,scale=${w}:${h},format=rgb24`;
  using tracker = await createFaceTracker({ iris: false });
  using dec = spawnFfmpeg(
    ['-i', path, '-an', '-t', String(maxSec), '-vf', vf, '-f', 'rawvideo', 'pipe:1'],
    signal,
  );
  dec.child.stdin.end();
  const open: number[] = [];
  let faces = 0;
  for await (const f of readFrames(dec.child.stdout, {
    width: w,
    height: h,
    channels: 3,
    fps: ANALYSIS_FPS,
  })) {
    const face = await tracker.detect(f.data, w, h);
    open.push(face ? outerLipOpening(face.mesh) : NaN);
    if (face) faces++;
  }
  await dec.done;
  fillGaps(open);
  const env = floorEnvelope(await speechEnvelope(path, { maxSec, bandHz: F2_BAND_HZ, signal }));
  const mouth = resample(open, ANALYSIS_FPS, ENVELOPE_HZ);
  // Search ±MAX_LAG_SEC around the in-sync reading, not around 0: the range is symmetric in
  // what it can correct.
  const usable = faces >= 10 && faces >= open.length / 2;
  const est = usable
    ? estimateLag(mouth, env, ENVELOPE_HZ, { centerSec: biasSec })
    : { lagSec: 0, confidence: 0, peak: 0 };
  const applied = est.confidence >= minConfidence;
  const round3 = (x: number) => Math.round(x * 1000) / 1000;
  return {
    lagSec: applied ? est.lagSec - biasSec : 0,
    confidence: round3(est.confidence),
    peak: round3(est.peak),
    details: {
      raw_lag_ms: Math.round(est.lagSec * 1000),
      bias_ms: Math.round(biasSec * 1000),
      peak_r: round3(est.peak),
      min_confidence: minConfidence,
      frames: open.length,
      faces,
      applied,
    },
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
