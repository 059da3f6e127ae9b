/**
 * @module containers/media/engines/frame-pipeline/editors
 * The contract between the render loop and the per-frame engines (gaze, mouth): each editor
 * changes the RGB of a raw RGBA frame in place. Alpha belongs to the blur mask. Editors that
 * look ahead observe frames at decode time and edit them a few frames later.
 */
import type { RawFrame } from './frames.js';

export interface FrameEditor extends Disposable {
  readonly name: string;
  /**
   * Frames the editor must have observed beyond the one it edits (e.g. landmarks every Nth
   * frame, interpolated, need the next keyframe). The render loop holds that many decoded
   * frames back. Default 0.
   */
  readonly lookahead?: number;
  /** Sees each unedited frame as soon as it is decoded, in order, before any `edit`. */
  observe?(frame: RawFrame): Promise<void>;
  /** Edits `frame.data` (RGBA) in place. Called once per output frame, in order. */
  edit(frame: RawFrame): Promise<void>;
  /** Numbers for the render report (frames edited, faces found, ms...). */
  report(): Record<string, unknown>;
  dispose(): void;
}
