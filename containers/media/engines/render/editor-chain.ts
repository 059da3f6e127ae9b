/**
 * @module containers/media/engines/render/editor-chain
 * Render stage 4: the per-frame work the options ask for: eye-contact correction (a frame editor,
 * or a remote service that returns a corrected copy), the mouth driven by new speech (first in
 * the chain), and the person segmenter for the blur. Options whose engine is not available are
 * reported as not applied (notes), not failed: the rest of the render is still what the client
 * asked for. The chain owns its engines: disposing it releases them.
 */
import type { FrameEditor, YuvFrame } from '../frame-pipeline/editors.js';
import type { GazeEngine } from '../gaze/engine.js';
import { EyeKeys } from '../gaze/eye-keys.js';
import type { Segmenter } from '../segment/index.js';
import type { LipSyncReport } from './audio.js';
import { engineFailure } from './errors.js';
import type { Prepared } from './prepare.js';
import type { RenderEngines, RenderInput } from './types.js';
import type { RenderLog } from './render-log.js';

type GazeFramesEngine = Extract<GazeEngine, { kind: 'frames' }>;

export interface EditorChain extends Disposable {
  /** The video the runner decodes: the source, or a remote service's corrected copy. */
  videoSource: string;
  editors: FrameEditor[];
  /** The mouth editor (also in `editors`), whose report completes the lip-sync report. */
  mouth?: FrameEditor;
  segmenter?: Segmenter;
  lipSync: LipSyncReport;
}

export async function buildEditorChain(
  input: RenderInput,
  { plan, speech }: Prepared,
  engines: RenderEngines,
  log: RenderLog,
  from: { videoSource: string; remoteLipSync: boolean; lipSync: LipSyncReport },
): Promise<EditorChain> {
  const { options, workDir, signal } = input;
  const chain: EditorChain = { ...from, editors: [], [Symbol.dispose]: () => {} };
  chain[Symbol.dispose] = () => {
    for (const e of chain.editors) e.dispose();
    chain.segmenter?.dispose();
  };
  // The segmenter process starts now: its start-up overlaps the mouth analysis (own decode + mesh thread).
  const segmenterStart =
    options.blur_background && engines.segmenter
      ? log.time('segmenter_init', () => engines.segmenter!())
      : undefined;
  segmenterStart?.catch(() => {}); // awaited below, or disposed on failure
  try {
    const drivesMouth = !!speech && options.lip_sync_correction && !from.remoteLipSync;
    // One face mesh per frame: with both face editors embedded, the mouth analysis also measures
    // the eyes, and the gaze editor reads them by the source frame the mouth editor matched.
    let sharedEyes: { engine: GazeFramesEngine; keys: EyeKeys } | undefined;
    if (options.eye_contact_correction) {
      const gaze = engines.gaze?.();
      if (!gaze) log.note('eye_contact_correction: not applied (no gaze engine in this build)');
      else if (gaze.kind === 'video') {
        // The service returns a corrected copy; it becomes the source of the one local encode.
        chain.videoSource = await log.time('gaze_remote', () =>
          gaze.correctVideo(chain.videoSource, workDir, signal).catch((err) => {
            throw engineFailure(
              'gaze_provider_error',
              `eye_contact_correction: ${(err as Error).message}`,
              err,
            );
          }),
        );
        log.apply('eye_contact_correction');
      } else if (drivesMouth && engines.mouth) {
        sharedEyes = { engine: gaze, keys: new EyeKeys(gaze.everyNth) };
      } else {
        chain.editors.push(await log.time('gaze_init', () => gaze.createEditor()));
        log.apply('eye_contact_correction');
      }
    }
    if (drivesMouth) {
      if (!engines.mouth) {
        log.note(
          'lip_sync_correction with new speech: not applied (no mouth engine in this build; set SYNC_API_URL for the remote provider)',
        );
        chain.lipSync = { mode: 'none', model: options.lip_sync_correction_model };
      } else {
        // First in the chain: the editors after it see the new mouth.
        const mouth = await log.time('mouth_init', () =>
          engines.mouth!(chain.videoSource, plan, speech!.path, signal, sharedEyes?.keys),
        );
        chain.mouth = mouth;
        chain.editors.unshift(mouth);
        log.apply('lip_sync_correction');
        chain.lipSync = { mode: 'embedded', model: options.lip_sync_correction_model };
        if (sharedEyes) {
          const landmarks = (frame: YuvFrame) => mouth.eyesFor(frame);
          chain.editors.push(
            await log.time('gaze_init', () => sharedEyes!.engine.createEditor({ landmarks })),
          );
          log.apply('eye_contact_correction');
        }
      }
    }
    if (options.blur_background) {
      if (!engines.segmenter)
        throw engineFailure('segmenter_unavailable', 'blur_background: no segmenter is configured');
      chain.segmenter = await segmenterStart;
      // Its shape for this video (a landscape model for wide video): the model loads meanwhile.
      chain.segmenter!.fitVideo?.(plan.width, plan.height);
      log.apply('blur_background');
    }
    return chain;
  } catch (err) {
    chain[Symbol.dispose]();
    if (!chain.segmenter)
      void segmenterStart?.then(
        (s) => s.dispose(),
        () => {},
      );
    throw err;
  }
}
