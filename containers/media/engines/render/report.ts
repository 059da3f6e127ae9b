/**
 * @module containers/media/engines/render/report
 * Render stage 6: the render report (the contract's `RenderReport`) from what the stages
 * recorded. The mouth editor's own report completes the lip-sync entry; a mouth edit that did
 * not happen (no usable mouth in the source) is taken back, never claimed.
 */
import type { RenderReport, RenderSpeech } from '../../../../src/contract/render.js';
import type { LipSyncReport } from './audio.js';
import type { CaptionTrack } from './caption-track.js';
import type { EditorChain } from './editor-chain.js';
import type { Prepared } from './prepare.js';
import type { RenderLog } from './render-log.js';

/** What the runner did: its pipeline shape, the frames it encoded and the blur's figures. */
export interface RunOutcome {
  path: RenderReport['path'];
  frames?: number;
  blur?: Record<string, unknown>;
}

export function buildReport(
  { plan, speech }: Prepared,
  chain: EditorChain,
  captions: CaptionTrack | null,
  speechWords: RenderSpeech | null,
  run: RunOutcome,
  log: RenderLog,
): RenderReport {
  return {
    output: {
      width: plan.width,
      height: plan.height,
      fps: plan.fps,
      duration_sec: plan.durationSec,
      fit: plan.fit,
    },
    path: run.path,
    options_applied: log.applied,
    stages_ms: log.stagesMs,
    frames: run.frames,
    lip_sync: lipSyncOutcome(chain, log),
    blur: run.blur,
    editors: chain.editors.length
      ? Object.fromEntries(chain.editors.map((e) => [e.name, e.report()]))
      : undefined,
    captions: captions?.report,
    speech: speechWords
      ? { timing: speechWords.timing, words: speechWords.words.length, language: speechWords.language }
      : undefined,
    voice: speech?.provenance
      ? { engine: speech.provenance.engine, voice_id: speech.provenance.voice_id }
      : undefined,
    notes: log.notes,
  };
}

function lipSyncOutcome({ mouth, lipSync }: EditorChain, log: RenderLog): LipSyncReport {
  if (!mouth || !lipSync) return lipSync;
  const m = mouth.report();
  const edited = {
    ...lipSync,
    engine: m.engine,
    frames_edited: m.edited,
    frames: m.frames,
    bank_patches: m.bank_patches,
    mean_abs_openness_error: m.mean_abs_openness_error,
  };
  if (!m.skipped) return edited;
  log.retract('lip_sync_correction', `lip_sync_correction with new speech: not applied (${m.skipped})`);
  return { ...edited, mode: 'none', skipped: m.skipped };
}
