/**
 * @module web/browser/form-fields
 * The page's two job forms as `FormData`, from the values its controls hold. Field names are the
 * contract's (`contract/options.ts`): a renamed option fails to compile here, and a unit test
 * fails when the contract gains a field the page neither sends nor lists as left out.
 */
import type { AnalysisOptions, AvatarChoice, ProcessFormOptions } from '../../contract/options.js';

/** The analyze-video fields the page writes: its options and the upload. */
export type AnalyzeField = keyof typeof AnalysisOptions.shape | 'file';
/** The process-video fields the page writes: its options, an avatar id, the uploads. */
export type ProcessField =
  keyof typeof ProcessFormOptions.shape | keyof typeof AvatarChoice.shape | 'file' | 'audio';

/** What the analysis controls hold. */
export interface AnalyzeValues {
  file: File | null;
  visualAnalytics: boolean;
  /** As typed; trimmed and lower-cased here, absent when empty (detected by the service). */
  language: string;
}

/** What the processing controls hold. */
export interface ProcessValues {
  file: File | null;
  /** A registered avatar's id, as typed; when present the file is not sent. */
  avatarId: string;
  voiceGenerator: string;
  description: string;
  voiceId: string;
  audio: File | null;
  blurBackground: boolean;
  lipSyncCorrection: boolean;
  eyeContactCorrection: boolean;
}

const flag = (on: boolean) => (on ? 'true' : 'false');

/** The analyze-video form; throws a message for the page to show when no file is chosen. */
export function analyzeForm(values: AnalyzeValues): FormData {
  if (!values.file) throw new Error('Choose or drop a video first.');
  const fd = new FormData();
  const set = (name: AnalyzeField, value: string | File) =>
    value instanceof File ? fd.append(name, value, value.name) : fd.append(name, value);
  set('file', values.file);
  set('visual_analytics', flag(values.visualAnalytics));
  const language = values.language.trim().toLowerCase();
  if (language) set('language', language);
  return fd;
}

/**
 * The process-video form; throws a message for the page to show when it lacks its video or, with
 * voice generator 2, its audio. Only the fields the chosen voice generator uses are sent.
 */
export function processForm(values: ProcessValues): FormData {
  const fd = new FormData();
  const set = (name: ProcessField, value: string | File) =>
    value instanceof File ? fd.append(name, value, value.name) : fd.append(name, value);
  const avatar = values.avatarId.trim();
  if (avatar) set('video_id', avatar);
  else if (values.file) set('file', values.file);
  else throw new Error('Choose a video, or enter a registered avatar id.');
  const vg = values.voiceGenerator;
  set('voice_generator', vg);
  const description = values.description.trim();
  if (description && vg !== '2') set('description', description);
  const voiceId = values.voiceId.trim();
  if (vg === '1' && voiceId) set('voice_id', voiceId);
  if (vg === '2') {
    if (!values.audio) throw new Error('Voice generator 2 uses your audio: choose an audio file.');
    set('audio', values.audio);
  }
  set('blur_background', flag(values.blurBackground));
  set('lip_sync_correction', flag(values.lipSyncCorrection));
  set('eye_contact_correction', flag(values.eyeContactCorrection));
  return fd;
}
