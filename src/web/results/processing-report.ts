/**
 * @module web/results/processing-report
 * What a processing job did, as the page lists it under the download link.
 */

/** The fields of the contract's `ProcessingReport` the list shows. */
export interface ShownProcessingReport {
  options_applied: string[];
  output: { width: number; height: number; duration_sec: number; fit: string };
  lip_sync?: { mode: string; audio_shift_ms: number | null } | null;
  captions?: string | null;
  voice?: { engine: string; voice_id: string };
  notes: string[];
}

/**
 * The processing report as lines of text: what was applied, the output, lip sync, captions,
 * the voice that spoke synthesized speech, then the notes. Text only (the page sets textContent).
 */
export function processingReportItems(report: ShownProcessingReport): string[] {
  const o = report.output;
  const items = [
    `Applied: ${report.options_applied.length ? report.options_applied.join(', ') : 'none'}`,
    `Output: ${o.width}×${o.height}, ${o.duration_sec.toFixed(2)} s (${o.fit})`,
  ];
  if (report.lip_sync)
    items.push(
      `Lip sync: ${report.lip_sync.mode}${report.lip_sync.audio_shift_ms !== null ? ` (${report.lip_sync.audio_shift_ms} ms)` : ''}`,
    );
  if (report.captions) items.push(`Captions timed by ${report.captions}`);
  if (report.voice) items.push(`Voice: ${report.voice.voice_id} (${report.voice.engine})`);
  return items.concat(report.notes);
}
