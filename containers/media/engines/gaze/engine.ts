/**
 * @module containers/media/engines/gaze/engine
 * The `GazeEngine` port: eye-contact correction either as a per-frame editor inside the
 * render's one decode → edit → encode loop (the embedded landmark warp), or as a whole-video
 * service (a remote GPU model) whose output the render then treats as its source.
 */
import type { RenderConfig } from '../../core/config.js';
import { DEFAULT_MESH_EVERY_NTH, type FrameEditor } from '../frame-pipeline/editors.js';
import { createWarpGazeEditor, type WarpGazeEditorOptions } from './editor.js';
import { correctGazeRemote } from './remote.js';

export type GazeEngine =
  /** Edits decoded frames in place; fused with blur and mouth edits. */
  | {
      kind: 'frames';
      name: string;
      /** Mesh every Nth frame (the cadence of landmarks it may borrow). */
      everyNth: number;
      createEditor(borrowed?: Pick<WarpGazeEditorOptions, 'landmarks'>): Promise<FrameEditor>;
    }
  /** Returns the path of a corrected copy of the video (same frames and timing). */
  | {
      kind: 'video';
      name: string;
      correctVideo(videoPath: string, workDir: string, signal?: AbortSignal): Promise<string>;
    };

/** The embedded landmark-warp engine. */
export function embeddedGazeEngine(options: WarpGazeEditorOptions = {}): GazeEngine {
  return {
    kind: 'frames',
    name: 'landmark-warp',
    everyNth: options.everyNth ?? DEFAULT_MESH_EVERY_NTH,
    createEditor: (borrowed) => createWarpGazeEditor({ ...options, ...borrowed }),
  };
}

/**
 * The remote service when `GAZE_SERVICE_URL` is set (wire format in `remote.ts`), else
 * the embedded engine meshing every `EDIT_MESH_EVERY_NTH`th frame (`render` of core/config).
 * @example const engine = gazeEngineFrom(mediaConfig().render);
 */
export function gazeEngineFrom({
  gazeService: remote,
  meshEveryNth,
}: Pick<RenderConfig, 'gazeService' | 'meshEveryNth'>): GazeEngine {
  if (!remote) return embeddedGazeEngine({ everyNth: meshEveryNth });
  return {
    kind: 'video',
    name: 'remote',
    correctVideo: (video, workDir, signal) => correctGazeRemote(remote, video, workDir, signal),
  };
}
