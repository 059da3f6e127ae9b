/**
 * @module containers/media/engines/render/engines
 * Default wiring of the engines a render uses: embedded engines, plus remote adapters when
 * their environment variables are set. Every engine is created lazily per render.
 */
import { mediaConfig, type RenderConfig } from '../../core/config.js';
import { measureAvOffset, syncLipSync, SyncApiError } from '../lipsync/index.js';
import { engineFailure } from './errors.js';
import { createProcessSegmenter } from '../segment/index.js';
import { gazeEngineFrom } from '../gaze/index.js';
import { alignCaptions, decodePcm16k } from './align.js';
import { defaultAsrEngine } from '../asr/routes.js';
import { createMouthEditor } from '../mouth/index.js';
import type { RenderEngines } from './types.js';

/**
 * Embedded engines + the configured remote adapters (`render` of core/config).
 * @example defaultRenderEngines(configFrom({ SYNC_API_URL: 'http://127.0.0.1:9' }).render)
 */
export function defaultRenderEngines(config: RenderConfig = mediaConfig().render): RenderEngines {
  return {
    estimateAvOffset: (path, probe) => measureAvOffset(path, probe),
    remoteLipSync: async (video, speech, workDir) => {
      const sync = config.sync;
      if (!sync) return null;
      try {
        return await syncLipSync(sync, video, speech, workDir);
      } catch (err) {
        if (err instanceof SyncApiError) throw engineFailure('lipsync_provider_error', err.message, err);
        throw err;
      }
    },
    gaze: () => gazeEngineFrom(config),
    // Used only when the remote provider is not configured (render.ts tries it first).
    mouth: (sourcePath, plan, speechPath, signal, eyes) =>
      createMouthEditor({
        sourcePath,
        plan,
        speechPath,
        signal,
        eyes,
        everyNth: eyes?.everyNth ?? config.meshEveryNth,
      }),
    align: (audioPath, text) => alignCaptions(audioPath, text),
    transcribe: async (audioPath, maxSec, language, signal) => {
      const pcm = await decodePcm16k(audioPath, signal, maxSec);
      return (await defaultAsrEngine()).transcribe(pcm, { language, signal });
    },
    // A child process per render: the job's nice, DELETE and deadline reach it; the main thread stays free.
    segmenter: async () =>
      createProcessSegmenter({ model: config.segmentationModel, landscape: config.blur.landscapeModel }),
  };
}
