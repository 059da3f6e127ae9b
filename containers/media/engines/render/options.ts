/**
 * @module containers/media/engines/render/options
 * The `options` part of `POST /render`, validated into a plain object. Bad fields throw
 * `RenderError('options_invalid')` naming the field path.
 */
import { badInput } from './errors.js';

export type LipSyncModel = 'lipsync2';

export interface RenderOptions {
  /** Blur everything but the person. Default false. */
  blur_background: boolean;
  /** Move the irises toward the eye centres. Default false. */
  eye_contact_correction: boolean;
  /** Re-align audio and mouth (offset fix without new speech; mouth driving with it). Default false. */
  lip_sync_correction: boolean;
  /** Default 'lipsync2' (the only named model). */
  lip_sync_correction_model: LipSyncModel;
  /** Text for a WebVTT caption track (mov_text in the MP4). Default none. */
  captions?: string;
}

export const DEFAULT_RENDER_OPTIONS: RenderOptions = {
  blur_background: false,
  eye_contact_correction: false,
  lip_sync_correction: false,
  lip_sync_correction_model: 'lipsync2',
};

const BOOLEAN_FIELDS = ['blur_background', 'eye_contact_correction', 'lip_sync_correction'] as const;

/** Parses the JSON text of the `options` part; missing text means all defaults. */
export function parseRenderOptions(text: string | undefined): RenderOptions {
  if (text === undefined || text.trim() === '') return { ...DEFAULT_RENDER_OPTIONS };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw badInput('options_invalid', `options: not valid JSON (${(err as Error).message})`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw badInput('options_invalid', 'options: must be a JSON object');
  }
  const obj = raw as Record<string, unknown>;
  const out: RenderOptions = { ...DEFAULT_RENDER_OPTIONS };
  for (const field of BOOLEAN_FIELDS) {
    const v = obj[field];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'boolean') throw badInput('options_invalid', `options.${field}: must be a boolean`);
    out[field] = v;
  }
  const model = obj.lip_sync_correction_model;
  if (model !== undefined && model !== null) {
    if (model !== 'lipsync2') {
      throw badInput('options_invalid', `options.lip_sync_correction_model: unknown model ${JSON.stringify(model)} (named: lipsync2)`);
    }
  }
  const captions = obj.captions;
  if (captions !== undefined && captions !== null) {
    if (typeof captions !== 'string') throw badInput('options_invalid', 'options.captions: must be a string');
    if (captions.trim() !== '') out.captions = captions;
  }
  return out;
}
