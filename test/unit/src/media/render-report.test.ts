import { describe, expect, it } from 'vitest';
import { ProcessingReport } from '../../../../src/contract/jobs.js';
import { parseRenderReport, summarizeRenderReport } from '../../../../src/media/render-report.js';

const header = (report: object) => JSON.stringify(report);
/** The public report of a render report sent as a header. */
const summarize = (report: object) => summarizeRenderReport(parseRenderReport(header(report))!);
const base = {
  output: { width: 844, height: 844, fps: 25, duration_sec: 5.04, fit: 'source' },
  path: 'frames',
  stages_ms: { encode: 10 },
  notes: [],
};

describe('summarizeRenderReport', () => {
  it('should keep what took effect and drop the internals', () => {
    const r = summarize({
      ...base,
      options_applied: ['blur_background', 'lip_sync_correction'],
      lip_sync: { mode: 'offset', measured_lag_ms: 293, confidence: 0.42, peak_r: 0.6 },
      blur: { masks: 32 },
    });
    expect(r).toEqual({
      options_applied: ['blur_background', 'lip_sync_correction'],
      lip_sync: { mode: 'offset', audio_shift_ms: 293 },
      captions: null,
      output: { width: 844, height: 844, fps: 25, duration_sec: 5.04, fit: 'source' },
      notes: [],
    });
    expect(ProcessingReport.parse(r)).toEqual(r);
  });

  it('should report a requested option that was not applied as mode none, with its note', () => {
    const note =
      'lip_sync_correction: the audio/video offset could not be measured reliably (confidence 0.05); the audio is not shifted';
    const r = summarize({
      ...base,
      options_applied: [],
      lip_sync: { mode: 'none', measured_lag_ms: 0 },
      notes: [note],
    });
    expect(r.lip_sync).toEqual({ mode: 'none', audio_shift_ms: null });
    expect(r.options_applied).toEqual([]);
    expect(r.notes).toEqual([note]);
  });

  it('should carry caption timing and the fit to new speech', () => {
    const r = summarize({
      ...base,
      output: { ...base.output, fit: 'loop' },
      options_applied: [],
      captions: { cues_from: 'alignment', words: 12 },
    });
    expect(r.captions).toBe('alignment');
    expect(r.output.fit).toBe('loop');
  });

  it('should never invent options', () => {
    expect(summarize({ ...base, options_applied: ['teleport', 'blur_background'] }).options_applied).toEqual([
      'blur_background',
    ]);
  });
});

describe('parseRenderReport', () => {
  it('should read how many words of new speech the render timed, and keep them out of the public report', () => {
    const speech = { timing: 'transcription', words: 12, language: 'de' };
    const text = header({ ...base, options_applied: [], speech });
    expect(parseRenderReport(text)?.speech).toEqual(speech);
    expect(summarizeRenderReport(parseRenderReport(text)!)).not.toHaveProperty('speech');
    expect(parseRenderReport(header({ ...base, options_applied: [] }))?.speech).toBeUndefined();
    expect(parseRenderReport('not json')).toBeNull();
  });

  it('should refuse a report that lacks what the container always sends', () => {
    expect(parseRenderReport(null)).toBeNull();
    expect(parseRenderReport('[1]')).toBeNull();
    expect(parseRenderReport(header({ options_applied: ['blur_background'], notes: [] }))).toBeNull();
    expect(
      parseRenderReport(header({ ...base, options_applied: [], lip_sync: { mode: 'sideways' } })),
    ).toBeNull();
  });
});
