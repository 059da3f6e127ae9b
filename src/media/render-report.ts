/**
 * @module media/render-report
 * The media container's render report (`x-render-report`, internal and verbose) reduced to the
 * public `processing_report` of the status response. Pure; tolerant of missing fields, strict
 * about what it claims: an option is "applied" only when the container says so.
 */
import type { ProcessingReport } from '../contract/jobs.js';

const OPTIONS = ['blur_background', 'eye_contact_correction', 'lip_sync_correction'] as const;
const LIP_SYNC_MODES = ['offset', 'embedded', 'remote', 'none'] as const;
const FITS = ['source', 'loop', 'trim'] as const;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const oneOf = <T extends string>(values: readonly T[], v: unknown, fallback: T): T => (values.includes(v as T) ? (v as T) : fallback);

/** Null when the header is missing or not JSON (an older container): the job still completes. */
export function summarizeRenderReport(header: string | null): ProcessingReport | null {
  if (!header) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(header);
  } catch {
    return null;
  }
  if (!isObject(raw)) return null;
  const applied = Array.isArray(raw.options_applied) ? raw.options_applied : [];
  const output = isObject(raw.output) ? raw.output : {};
  const lip = isObject(raw.lip_sync) ? raw.lip_sync : null;
  const mode = lip ? oneOf(LIP_SYNC_MODES, lip.mode, 'none') : null;
  const voice = isObject(raw.voice) && typeof raw.voice.engine === 'string' && typeof raw.voice.voice_id === 'string' ? { engine: raw.voice.engine, voice_id: raw.voice.voice_id } : undefined;
  const captions = isObject(raw.captions) ? oneOf(['alignment', 'even-split'] as const, raw.captions.cues_from, 'even-split') : null;
  return {
    options_applied: OPTIONS.filter((o) => applied.includes(o)),
    lip_sync: mode ? { mode, audio_shift_ms: mode === 'offset' ? Math.round(num(lip!.measured_lag_ms)) : null } : null,
    captions,
    ...(voice ? { voice } : {}),
    output: {
      width: Math.round(num(output.width)),
      height: Math.round(num(output.height)),
      fps: num(output.fps),
      duration_sec: num(output.duration_sec),
      fit: oneOf(FITS, output.fit, 'source'),
    },
    notes: Array.isArray(raw.notes) ? raw.notes.filter((n): n is string => typeof n === 'string') : [],
  };
}
