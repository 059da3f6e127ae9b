/**
 * @module containers/media/engines/render/editors
 * The contract between the render loop and the per-frame engines (gaze, mouth): each editor
 * changes the RGB of a raw RGBA frame in place. Alpha belongs to the blur mask.
 */
import type { RawFrame } from './frames.js';

export interface FrameEditor extends Disposable {
  readonly name: string;
  /** Edits `frame.data` (RGBA) in place. Called once per output frame, in order. */
  edit(frame: RawFrame): Promise<void>;
  /** Numbers for the render report (frames edited, faces found, ms...). */
  report(): Record<string, unknown>;
  dispose(): void;
}
