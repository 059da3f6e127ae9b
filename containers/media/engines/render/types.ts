/**
 * @module containers/media/engines/render/types
 * The render's inputs and result, shared by its stages: what to render, the engines it may use,
 * and what it returns.
 */
import type { AsrOutput, ProbeResult } from '../../../../src/contract/media.js';
import type { RenderReport, RenderSpeech } from '../../../../src/contract/render.js';
import type { MediaLimits } from '../../core/media-limits.js';
import type { FrameEditor } from '../frame-pipeline/editors.js';
import type { RenderPlan } from '../frame-pipeline/plan.js';
import type { GazeEngine } from '../gaze/engine.js';
import type { EyeKeys } from '../gaze/eye-keys.js';
import type { MouthEditor } from '../mouth/editor.js';
import type { Segmenter } from '../segment/index.js';
import type { CaptionWord } from './captions.js';
import type { RenderOptions } from './options.js';

/** Engines a render may use; each is created lazily, only when its option is on. */
export interface RenderEngines {
  segmenter?: () => Promise<Segmenter>;
  /** Eye-contact correction: a per-frame editor (embedded) or a whole-video service (remote). */
  gaze?: () => GazeEngine;
  /** Measures how late the source audio is versus the mouth (seconds; positive = audio late). */
  estimateAvOffset?: (
    sourcePath: string,
    probe: ProbeResult,
  ) => Promise<{ lagSec: number; confidence: number; details?: Record<string, unknown> }>;
  /**
   * Mouth editor driven by new speech (embedded classical method): analyses `sourcePath` as the
   * render will show it (`plan`), then edits the output frames in order. With `eyes`, its
   * analysis also measures the eye-contact editor's landmarks.
   */
  mouth?: (
    sourcePath: string,
    plan: RenderPlan,
    speechPath: string,
    signal?: AbortSignal,
    eyes?: EyeKeys,
  ) => Promise<MouthEditor>;
  /** Remote lip-sync: returns a path to a video whose mouth follows the speech, or null if not configured. */
  remoteLipSync?: (videoPath: string, speechPath: string, workDir: string) => Promise<string | null>;
  /** Word timings of `text` spoken in `audioPath`, or null when no aligner is available. */
  align?: (audioPath: string, text: string) => Promise<CaptionWord[] | null>;
  /**
   * The words of the speech in `audioPath` (its first `maxSec` seconds) by the service's
   * recogniser, in `language` when given, else in the language it detects.
   */
  transcribe?: (
    audioPath: string,
    maxSec: number,
    language?: string,
    signal?: AbortSignal,
  ) => Promise<AsrOutput>;
}

export interface RenderInput {
  sourcePath: string;
  speechPath?: string;
  options: RenderOptions;
  /** Directory for intermediates and the output; the caller deletes it. */
  workDir: string;
  signal?: AbortSignal;
  /** Media limits of this request (the Worker's `MAX_MEDIA_DURATION_SEC`). */
  limits?: MediaLimits;
  /** The source's probe already under way (the route's, which also answers GET /render/probe). */
  sourceProbe?: Promise<ProbeResult>;
  /** How much of the output the encoder has written, 0..1, as it goes (GET /render/progress). */
  onProgress?: (fraction: number) => void;
}

/** The report's shape is the contract's: the Worker reads it with the same schema. */
export type { RenderReport, RenderSpeech };

export interface RenderResult {
  outputPath: string;
  report: RenderReport;
  /** The new speech's timed words on the output's timeline (`speech-words.ts`), or null. */
  speech: RenderSpeech | null;
}
