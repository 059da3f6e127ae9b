/**
 * @module containers/media/engines/render/engines
 * Default wiring of the engines a render uses: embedded engines, plus remote adapters when
 * their environment variables are set. Every engine is created lazily per render.
 */
import { measureAvOffset, syncApiFromEnv, syncLipSync, SyncApiError } from '../lipsync/index.js';
import { engineFailure } from './errors.js';
import { createProcessSegmenter } from '../segment/index.js';
import { gazeEngineFromEnv } from '../gaze/index.js';
import { alignCaptions, decodePcm16k } from './align.js';
import { defaultAsrEngine } from '../asr/routes.js';
import { createMouthEditor } from '../mouth/index.js';
import { meshEveryNthFromEnv } from '../frame-pipeline/editors.js';
import type { RenderEngines } from './types.js';

/** Embedded engines + env-configured adapters (read at call time). */
export function defaultRenderEngines(env: NodeJS.ProcessEnv = process.env): RenderEngines {
  return {
    estimateAvOffset: (path, probe) => measureAvOffset(path, probe),
    remoteLipSync: async (video, speech, workDir) => {
      const sync = syncApiFromEnv(env);
      if (!sync) return null;
      try {
        return await syncLipSync(sync, video, speech, workDir);
      } catch (err) {
        if (err instanceof SyncApiError) throw engineFailure('lipsync_provider_error', err.message, err);
        throw err;
      }
    },
    gaze: () => gazeEngineFromEnv(env),
    // Used only when the remote provider is not configured (render.ts tries it first).
    mouth: (sourcePath, plan, speechPath, signal, eyes) =>
      createMouthEditor({
        sourcePath,
        plan,
        speechPath,
        signal,
        eyes,
        everyNth: eyes?.everyNth ?? meshEveryNthFromEnv(env),
      }),
    align: (audioPath, text) => alignCaptions(audioPath, text),
    transcribe: async (audioPath, maxSec, language, signal) => {
      const pcm = await decodePcm16k(audioPath, signal, maxSec);
      return (await defaultAsrEngine()).transcribe(pcm, { language, signal });
    },
    // A child process per render: the job's nice, DELETE and deadline reach it; the main thread stays free.
    segmenter: async () =>
      createProcessSegmenter({
        model: (env.SEGMENTATION_MODEL as 'selfie' | 'meet' | undefined) ?? 'selfie',
      }),
  };
}
