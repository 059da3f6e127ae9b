/**
 * @module containers/media/engines/mouth/editor
 * The embedded mouth-driving editor (classical, no generative model): at creation it runs the
 * analysis pass over the source, turns the new speech's envelope into a target openness per
 * output frame, and picks a banked source mouth per frame (Viterbi with a change penalty).
 * Per frame it reads which source frame is shown (`YuvFrame.sourceIndex`), places the chosen
 * patch on it by a similarity transform on rigid anchors (nose base, mouth corners) and blends
 * it through a feathered ellipse around both lip outlines.
 */
import type { FaceTracker } from '../face-tracking/face-track.js';
import type { EyeKeys } from '../gaze/eye-keys.js';
import type { Keyframe } from '../gaze/keyframes.js';
import { ENVELOPE_HZ, speechEnvelope } from '../lipsync/envelope.js';
import { MOUTH_LEADS_AUDIO_SEC } from '../lipsync/av-offset.js';
import { DEFAULT_MESH_EVERY_NTH, type FrameEditor, type YuvFrame } from '../frame-pipeline/editors.js';
import { frameCount, type RenderPlan } from '../frame-pipeline/plan.js';
import { analyseMouths, DEFAULT_BANK_CAPACITY, recordAt } from './analysis.js';
import { blendPatch } from './blend.js';
import { anchors, mouthEllipse, outerLips } from './landmarks.js';
import { selectPatches, type SelectOptions } from './select.js';
import { applySimilarity, fitSimilarity, similarityScale } from './similarity.js';
import { targetOpenness } from './target.js';

/** A placed patch scaled beyond this ratio means a bad anchor fit (mesh glitch): skip the frame. */
const MAX_SCALE_RATIO = 1.35;

export interface MouthEditorOptions extends SelectOptions {
  sourcePath: string;
  speechPath: string;
  plan: RenderPlan;
  /** Face mesh every Nth analysed frame (interpolated between). Default `DEFAULT_MESH_EVERY_NTH`. */
  everyNth?: number;
  /** Patches kept at most. Default DEFAULT_BANK_CAPACITY. */
  capacity?: number;
  /** Mouth-leads-audio offset, s. Default MOUTH_LEADS_AUDIO_SEC. */
  leadSec?: number;
  tracker?: FaceTracker;
  /** Also measure the eye-contact editor's landmarks in the analysis pass (one mesh for both). */
  eyes?: EyeKeys;
  signal?: AbortSignal;
}

export interface MouthEditor extends FrameEditor {
  /** The eye landmarks (`options.eyes`) of the source frame `frame` shows; null when there are none. */
  eyesFor(frame: YuvFrame): Keyframe | null;
}

/**
 * @example
 * const editor = await createMouthEditor({ sourcePath, speechPath, plan });
 * // render loop: edit(frame) for each output frame, in order.
 */
export async function createMouthEditor(options: MouthEditorOptions): Promise<MouthEditor> {
  const {
    sourcePath,
    speechPath,
    plan,
    everyNth = DEFAULT_MESH_EVERY_NTH,
    capacity = DEFAULT_BANK_CAPACITY,
    leadSec = MOUTH_LEADS_AUDIO_SEC,
    tracker,
    eyes,
    signal,
    ...select
  } = options;
  const analysis = await analyseMouths(sourcePath, plan, { everyNth, capacity, tracker, eyes, signal });
  const t0 = performance.now();
  const frames = frameCount(plan);
  const bank = analysis.bank.entries;
  const usable = bank.length >= 2 && analysis.openness.length >= 2;
  const env = usable ? await speechEnvelope(speechPath, { signal }) : new Float64Array(0);
  const targets = usable
    ? targetOpenness(env, analysis.openness, { fps: plan.fps, frames, envelopeHz: ENVELOPE_HZ, leadSec })
    : new Float64Array(0);
  const choice = usable
    ? selectPatches(
        targets,
        bank.map((e) => e.openness),
        select,
      )
    : new Int32Array(0);
  const planMs = performance.now() - t0;

  const stats = {
    frames: 0,
    edited: 0,
    no_face: 0,
    bad_fit: 0,
    blend_ms: 0,
    err_sum: 0,
    scored: 0,
    switches: 0,
  };
  let lastChoice = -1;
  const dispose = () => {};
  return {
    name: 'mouth',
    async edit(frame) {
      stats.frames++;
      if (!usable) return;
      const t1 = performance.now();
      try {
        const s = frame.sourceIndex;
        const dest = recordAt(analysis, s);
        if (!dest) return void stats.no_face++;
        const k = choice[Math.min(frame.index, choice.length - 1)];
        const { record: src, patch } = bank[k].value;
        if (k !== lastChoice) stats.switches++;
        lastChoice = k;
        stats.scored++;
        stats.err_sum += Math.abs(bank[k].openness - targets[Math.min(frame.index, targets.length - 1)]);
        if (bank[k].frame === s) return void stats.edited++; // the shown frame is the chosen one
        const toFrame = fitSimilarity(anchors(src), anchors(dest));
        const sc = similarityScale(toFrame);
        if (!(sc < MAX_SCALE_RATIO && sc > 1 / MAX_SCALE_RATIO)) return void stats.bad_fit++;
        const destLips = outerLips(dest);
        const placed = outerLips(src).map((p) => applySimilarity(toFrame, p));
        const ellipse = mouthEllipse([destLips[0], destLips[10]], [destLips, placed]);
        if (blendPatch(frame.yuv, frame.width, frame.height, patch, toFrame, ellipse) > 0) stats.edited++;
      } finally {
        stats.blend_ms += performance.now() - t1;
      }
    },
    eyesFor(frame) {
      return eyes ? eyes.at(frame.sourceIndex) : null;
    },
    report() {
      const o = analysis.openness.slice().sort((a, b) => a - b);
      const r3 = (x: number) => Math.round(x * 1000) / 1000;
      return {
        engine: 'patch-bank',
        meshes: analysis.meshes,
        mesh_engine: analysis.engine,
        faces: analysis.faces,
        bank_patches: bank.length,
        bank_offered: analysis.bank.offered,
        source_openness: o.length
          ? { min: r3(o[0]), median: r3(o[o.length >> 1]), max: r3(o[o.length - 1]) }
          : null,
        frames: stats.frames,
        edited: stats.edited,
        no_face: stats.no_face,
        bad_fit: stats.bad_fit,
        patch_switches: stats.switches,
        mean_abs_openness_error: stats.scored ? r3(stats.err_sum / stats.scored) : null,
        analysis_ms: Math.round(analysis.ms),
        analysis_stages_ms: Object.fromEntries(
          Object.entries(analysis.stages_ms).map(([k, v]) => [k, Math.round(v)]),
        ),
        plan_ms: Math.round(planMs),
        blend_ms: Math.round(stats.blend_ms),
        ...(usable ? {} : { skipped: 'no face found in enough source frames' }),
      };
    },
    dispose,
    [Symbol.dispose]: dispose,
  };
}
