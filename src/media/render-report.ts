/**
 * @module media/render-report
 * The media container's render report (`x-render-report`, internal and verbose) reduced to the
 * public `processing_report` of the status response. Pure; read with the contract's
 * `RenderReport` schema; strict about what it claims: an option is "applied" only when the
 * container says so.
 */
import type { z } from 'zod';
import type { ProcessingReport } from '../contract/jobs.js';
import { AppliedOption } from '../contract/options.js';
import { RenderReport } from '../contract/render.js';

/** The render report as the Worker reads it; null when the header is missing or not a report. */
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

/** The public report of a render's report. */
export function summarizeRenderReport(report: z.output<typeof RenderReport>): ProcessingReport {
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
