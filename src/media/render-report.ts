/**
 * @module media/render-report
 * The media container's render report (`x-render-report`, internal and verbose) reduced to the
 * public `processing_report` of the status response. Pure; read with the contract's
 * `RenderReport` schema, which tolerates missing fields; strict about what it claims: an option
 * is "applied" only when the container says so.
 */
import type { z } from 'zod';
import type { ProcessingReport } from '../contract/jobs.js';
import { AppliedOption } from '../contract/options.js';
import { RenderReport } from '../contract/render.js';

/** The render report as the Worker reads it; null when the header is missing or not a JSON object. */
export function parseRenderReport(header: string | null): z.output<typeof RenderReport> | null {
  if (!header) return null;
  let json: unknown;
  try {
    json = JSON.parse(header);
  } catch {
    return null;
  }
  const parsed = RenderReport.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** Null when the header is missing or not a JSON object (an older container): the job still completes. */
export function summarizeRenderReport(header: string | null): ProcessingReport | null {
  const report = parseRenderReport(header);
  if (!report) return null;
  const { options_applied, lip_sync, captions, voice, output, notes } = report;
  const mode = lip_sync?.mode ?? null;
  return {
    options_applied: AppliedOption.options.filter((o) => options_applied.includes(o)),
    lip_sync: mode
      ? { mode, audio_shift_ms: mode === 'offset' ? Math.round(lip_sync?.measured_lag_ms ?? 0) : null }
      : null,
    captions: captions?.cues_from ?? null,
    ...(voice ? { voice } : {}),
    output: { ...output, width: Math.round(output.width), height: Math.round(output.height) },
    notes,
  };
}
