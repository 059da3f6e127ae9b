/**
 * @module containers/media/engines/mouth/analysis
 * The analysis pass of mouth driving: one decode of the source frames the render will show
 * (same size, rate and duration as one pass of the render's own decode), of which only every
 * Nth frame reaches Node (the decoder drops the others before converting them), face mesh on
 * each → mouth landmarks for every frame (interpolated between meshes), openness, and a bounded
 * bank of mouth patches cut at the mesh frames. The render names each frame's source index
 * (`YuvFrame.sourceIndex`), so no frame has to be recognised by its pixels.
 * Memory: ~0.4 KB per source frame + at most `capacity` patches.
 */
import { DEFAULT_MESH_EVERY_NTH } from '../frame-pipeline/editors.js';
import { spawnFfmpeg } from '../../core/ffmpeg.js';
import type { FaceMesh, FaceMeshEngine, FaceTracker } from '../face-tracking/face-track.js';
import { DETECT_MAX_SIDE_PX } from '../gaze/editor.js';
import type { EyeKeys } from '../gaze/eye-keys.js';
import { mediaConfig } from '../../core/config.js';
import { createProcessingFaceTracker } from '../face-tracking/face-track-worker.js';
import { decoderArgs } from '../frame-pipeline/ffmpeg-args.js';
import { readRecords } from '../frame-pipeline/frames.js';
import { rgbSizeAt, yuv420pSize, yuvToRgb } from '../frame-pipeline/yuv.js';
import { RecordPool } from '../frame-pipeline/record-pool.js';
import type { RenderPlan } from '../frame-pipeline/plan.js';
import { PatchBank } from './bank.js';
import { cutPatch, type Patch } from './blend.js';
import { lerpRecord, mouthRecord, outerLips, recordOpenness } from './landmarks.js';

/** Patches kept at most (each ~20–60 KB at 512–844 px faces; bounded whatever the length). */
export const DEFAULT_BANK_CAPACITY = 96;
/** Face mesh input, longest side px: the mesh crops the face itself; lips need ~40+ px. */
export const ANALYSIS_DETECT_MAX_SIDE_PX = 480;
/** Meshes in flight on a face-mesh thread while this thread decodes on (each holds its frame). */
export const ANALYSIS_MESHES_AHEAD = 4;

export interface BankedPatch {
  record: Float32Array;
  patch: Patch;
}

export interface MouthAnalysis {
  /**
   * Landmark record per source frame up to the last mesh frame (null: no face near it); read
   * it with `recordAt`, which also covers the frames after that one.
   */
  records: (Float32Array | null)[];
  /** Openness of every mesh frame with a face (the source's openness distribution). */
  openness: number[];
  bank: PatchBank<BankedPatch>;
  meshes: number;
  faces: number;
  /** The face mesh that measured it. */
  engine: FaceMeshEngine;
  ms: number;
  /** Where `ms` went: detection input (downscale), face mesh, patch cuts. */
  stages_ms: { detect_input: number; mesh: number; cut: number };
}

export interface AnalysisOptions {
  everyNth?: number;
  capacity?: number;
  detectMaxSide?: number;
  tracker?: FaceTracker;
  /**
   * Also keep the eye-contact editor's landmarks here (`eye-keys.ts`): the mesh then runs with
   * the iris model, at the gaze editor's detection size, so one mesh per frame serves both.
   */
  eyes?: EyeKeys;
  signal?: AbortSignal;
}

/** Crop kept around the lips, in mouth widths beyond the lip box (covers the blend ellipse). */
const CROP_ALONG = 0.45,
  CROP_UP = 0.5,
  CROP_DOWN = 0.6;

/** @example const a = await analyseMouths(sourcePath, plan); */
export async function analyseMouths(
  sourcePath: string,
  plan: RenderPlan,
  options: AnalysisOptions = {},
): Promise<MouthAnalysis> {
  const {
    everyNth = DEFAULT_MESH_EVERY_NTH,
    capacity = DEFAULT_BANK_CAPACITY,
    eyes,
    detectMaxSide = eyes ? DETECT_MAX_SIDE_PX : ANALYSIS_DETECT_MAX_SIDE_PX,
    tracker: given,
    signal,
  } = options;
  const N = Math.max(1, Math.floor(everyNth));
  if (eyes && eyes.everyNth !== N) throw new Error('analyseMouths: eye keys need the same mesh cadence');
  const t0 = performance.now();
  const tracker =
    given ??
    (await createProcessingFaceTracker({
      iris: !!eyes,
      lanes: mediaConfig().render.analysisMeshLanes,
      signal,
    }));
  const ahead = tracker.pipelined ? ANALYSIS_MESHES_AHEAD : 0;
  const records: (Float32Array | null)[] = [];
  const openness: number[] = [];
  const bank = new PatchBank<BankedPatch>(capacity);
  let meshes = 0,
    faces = 0;
  const stages = { detect_input: 0, mesh: 0, cut: 0 };
  const lap = (stage: keyof typeof stages, since: number) => (
    (stages[stage] += performance.now() - since),
    performance.now()
  );
  const { width: W, height: H } = plan;
  const scale = Math.min(1, detectMaxSide / Math.max(W, H));
  // Mesh frames asked for and not yet recorded, in order, each with its picture (for the patch
  // cut) and the mesh's input.
  const inFlight: { index: number; yuv: Buffer; rgb: Buffer; face: Promise<FaceMesh | null> }[] = [];
  // Frame buffers are handed back once read (mesh frames: once their patch is cut); the mesh's
  // input once it answered (a tracker on a thread takes it for good: then it is not reused).
  const pool = new RecordPool(yuv420pSize(W, H), ahead + 4);
  const { w, h } = rgbSizeAt(W, H, scale);
  const rgbPool = new RecordPool(w * h * 3, ahead + 2);
  const settle = async (keep: number) => {
    while (inFlight.length > keep) {
      const k = inFlight.shift()!;
      let t = performance.now();
      const face = await k.face;
      t = lap('mesh', t);
      eyes?.add(k.index, face, 1 / scale);
      if (face && face.mesh.length >= 468) {
        faces++;
        const rec = mouthRecord(face.mesh, 1 / scale);
        records[k.index] = rec;
        const o = recordOpenness(rec);
        openness.push(o);
        bank.add({
          openness: o,
          frame: k.index,
          value: { record: rec, patch: cropAroundLips(k.yuv, W, H, rec) },
        });
        lap('cut', t);
      }
      pool.give(k.yuv);
      rgbPool.give(k.rgb);
    }
  };
  try {
    using dec = spawnFfmpeg(
      decoderArgs(sourcePath, plan, { loop: false, pixFmt: 'yuv420p', everyNth: N }),
      signal,
    );
    dec.child.stdin.end();
    for await (const yuv of readRecords(dec.child.stdout, yuv420pSize(W, H), pool)) {
      const index = meshes++ * N;
      const t = performance.now();
      const rgb = rgbPool.take();
      yuvToRgb(yuv, W, H, scale, rgb);
      lap('detect_input', t);
      const face = tracker.detect(rgb, w, h);
      face.catch(() => {}); // a disposed tracker rejects what is still in flight: nobody waits for it
      records[index] = null;
      inFlight.push({ index, yuv, rgb, face });
      await settle(ahead);
    }
    await settle(0);
    await dec.done;
    fillBetweenMeshes(records, N);
  } finally {
    if (!given) tracker.dispose();
  }
  return {
    records,
    openness,
    bank,
    meshes,
    faces,
    engine: tracker.engine ?? 'human-tfjs',
    ms: performance.now() - t0,
    stages_ms: stages,
  };
}

/** The lips' region of frame `yuv`, as a yuv420p patch. */
function cropAroundLips(yuv: Buffer, width: number, height: number, rec: Float32Array): Patch {
  const lips = outerLips(rec);
  const xs = lips.map((p) => p.x),
    ys = lips.map((p) => p.y);
  const x0 = Math.min(...xs),
    x1 = Math.max(...xs),
    y0 = Math.min(...ys),
    y1 = Math.max(...ys);
  const mw = x1 - x0;
  const [cx, cy] = [x0 - CROP_ALONG * mw, y0 - CROP_UP * mw];
  const [cw, ch] = [mw * (1 + 2 * CROP_ALONG), y1 - y0 + (CROP_UP + CROP_DOWN) * mw];
  return cutPatch(yuv, width, height, cx, cy, cw, ch);
}

/**
 * Frames between two mesh frames (multiples of N) with a face get interpolated landmarks; the
 * others stay null.
 */
function fillBetweenMeshes(records: (Float32Array | null)[], N: number): void {
  for (let i = N; i < records.length; i += N) {
    const [a, b] = [records[i - N], records[i]];
    if (a && b) for (let k = 1; k < N; k++) records[i - N + k] = lerpRecord(a, b, k / N);
    else for (let k = 1; k < N; k++) records[i - N + k] ??= null;
  }
}

/**
 * The landmarks of source frame `index`: the analysis's record, or past the last mesh frame
 * (fewer than N frames before the source ends) that frame's, held.
 */
export const recordAt = (a: Pick<MouthAnalysis, 'records'>, index: number): Float32Array | null =>
  a.records.length ? a.records[Math.min(index, a.records.length - 1)] : null;
