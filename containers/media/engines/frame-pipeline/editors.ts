/**
 * @module containers/media/engines/frame-pipeline/editors
 * The contract between the render loop and the per-frame engines (gaze, mouth): frames travel
 * as yuv420p; an editor either changes `frame.yuv` itself (the mouth) or asks for the RGBA of
 * the regions it works on and changes them in place (gaze; `FrameCanvas` writes the changed
 * pixels back at the end of the frame, so editors of `frame.yuv` go first in a chain). Editors
 * that look ahead observe frames at decode time and edit them a few frames later.
 */
import type { Box, FrameCanvas } from './yuv.js';

/** A decoded frame of the frames path: yuv420p at plan size. */
export interface YuvFrame {
  /** Position in the output. */
  index: number;
  /**
   * Position in the source pass it comes from: equal to `index`, except when the render loops
   * the source (each pass restarts at 0 with a new decoder: `decodeSourceFrames`).
   */
  sourceIndex: number;
  /** Seconds from the start of the output. */
  time: number;
  width: number;
  height: number;
  /** Y, U, V planes, no padding. */
  yuv: Buffer;
}

/** A frame at edit time. */
export interface EditFrame extends YuvFrame {
  /**
   * The frame-sized RGBA canvas, holding this frame's pixels at least inside `box`; RGB changes
   * made there reach the output (alpha is ignored).
   */
  rgba(box: Box): Uint8Array;
}

export interface FrameEditor extends Disposable {
  readonly name: string;
  /**
   * Frames the editor must have observed beyond the one it edits (e.g. landmarks every Nth
   * frame, interpolated, need the next keyframe). The render loop holds that many decoded
   * frames back. Default 0.
   */
  readonly lookahead?: number;
  /** Sees each unedited frame as soon as it is decoded, in order, before any `edit`. */
  observe?(frame: YuvFrame): Promise<void>;
  /** Edits `frame.yuv`, or the RGB of `frame.rgba(box)`, in place. Once per output frame, in order. */
  edit(frame: EditFrame): Promise<void>;
  /** Numbers for the render report (frames edited, faces found, ms...). */
  report(): Record<string, unknown>;
  dispose(): void;
}

/** Runs `editors` over `frame` in order, on `canvas`, and writes their changes into `frame.yuv`. */
export async function editFrame(editors: FrameEditor[], canvas: FrameCanvas, frame: YuvFrame): Promise<void> {
  canvas.begin(frame.yuv);
  const editable: EditFrame = { ...frame, rgba: (box) => canvas.region(box) };
  for (const e of editors) await e.edit(editable);
  canvas.commit();
}

/**
 * How often the face editors (eye contact, the mouth analysis) run the face mesh, interpolating
 * between: every 3rd frame. The mesh is their largest cost, in wasm and in collector time
 * (docs/benchmarks.md "Every option at once"); each editor still measures the irises or the mouth
 * in every frame. 3 is faster than 2 with the quality tests' figures unchanged; 4 is faster still
 * but weakens the gaze correction (docs/benchmarks.md "Face mesh every nth frame").
 */
export const DEFAULT_MESH_EVERY_NTH = 3;
