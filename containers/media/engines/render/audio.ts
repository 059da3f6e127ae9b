/**
 * @module containers/media/engines/render/audio
 * Render stage 2: which audio the output carries (new speech, the source's own, or silence), the
 * measured audio/video offset when lip_sync_correction asks for it on the source's audio, and the
 * remote lip-sync provider when new speech should drive the mouth.
 */
import type { RenderReport } from '../../../../src/contract/render.js';
import { keptAudioTracks, type AudioInput } from '../frame-pipeline/ffmpeg-args.js';
import { engineFailure } from './errors.js';
import type { Prepared } from './prepare.js';
import type { RenderEngines, RenderInput } from './types.js';
import type { RenderLog } from './render-log.js';

export type LipSyncReport = RenderReport['lip_sync'];

export interface AudioChoice {
  audio: AudioInput;
  lipSync: LipSyncReport;
}

export async function chooseAudio(
  input: RenderInput,
  { source, speech }: Prepared,
  engines: RenderEngines,
  log: RenderLog,
): Promise<AudioChoice> {
  const wantsSync = input.options.lip_sync_correction;
  if (speech) return { audio: { kind: 'speech', path: speech.path }, lipSync: undefined };
  if (!source.audio) {
    if (wantsSync) log.note('lip_sync_correction: the source has no audio; nothing to align');
    return { audio: { kind: 'silent' }, lipSync: undefined };
  }
  const tracks = keptAudioTracks(source.audio.streams);
  if ((source.audio.streams ?? 1) > tracks)
    log.note(`the source has ${source.audio.streams} audio tracks: the output keeps the first ${tracks}`);
  const audio: AudioInput = {
    kind: 'source',
    path: input.sourcePath,
    lagSec: 0,
    codec: source.audio.codec,
    tracks,
  };
  if (!wantsSync) return { audio, lipSync: undefined };
  if (!engines.estimateAvOffset)
    throw engineFailure('lipsync_unavailable', 'lip_sync_correction: no offset estimator is configured');
  const est = await log.time('lipsync_offset', () => engines.estimateAvOffset!(input.sourcePath, source));
  const lipSync: NonNullable<LipSyncReport> = {
    mode: 'offset',
    measured_lag_ms: Math.round(est.lagSec * 1000),
    confidence: est.confidence,
    ...est.details,
  };
  audio.lagSec = est.lagSec;
  // An estimate below the confidence gate is reported, not applied: the audio stays put.
  if (est.details?.applied === false) {
    lipSync.mode = 'none';
    log.note(
      `lip_sync_correction: the audio/video offset could not be measured reliably (confidence ${est.confidence.toFixed(2)}); the audio is not shifted`,
    );
  } else log.apply('lip_sync_correction');
  return { audio, lipSync };
}

/**
 * New speech + lip sync through the remote provider, if one is configured: the path of a video whose
 * mouth follows the speech, or null (then the embedded mouth editor may do it).
 */
export async function remoteLipSync(
  input: RenderInput,
  { speech }: Prepared,
  engines: RenderEngines,
  log: RenderLog,
): Promise<{ videoPath: string; lipSync: LipSyncReport } | null> {
  if (!speech || !input.options.lip_sync_correction || !engines.remoteLipSync) return null;
  const videoPath = await log.time('lipsync_remote', () =>
    engines.remoteLipSync!(input.sourcePath, speech.path, input.workDir),
  );
  if (!videoPath) return null;
  log.apply('lip_sync_correction');
  return { videoPath, lipSync: { mode: 'remote', model: input.options.lip_sync_correction_model } };
}
