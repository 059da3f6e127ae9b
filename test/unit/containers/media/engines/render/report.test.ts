/**
 * The render report from what the stages recorded: a mouth edit that did not happen is taken
 * back (option, mode and a note), never claimed.
 */
import { describe, expect, it } from 'vitest';
import type { FrameEditor } from '../../../../../../containers/media/engines/frame-pipeline/editors.js';
import type { EditorChain } from '../../../../../../containers/media/engines/render/editor-chain.js';
import type { Prepared } from '../../../../../../containers/media/engines/render/prepare.js';
import { RenderLog } from '../../../../../../containers/media/engines/render/render-log.js';
import { buildReport } from '../../../../../../containers/media/engines/render/report.js';

const prepared = {
  source: {} as Prepared['source'],
  speech: {
    path: '/tmp/s.wav',
    durationSec: 4,
    provenance: { engine: 'piper', voice_id: 'en_US-joe-medium', notes: [] },
  },
  plan: { width: 640, height: 360, fps: 25, durationSec: 4, fit: 'loop' },
} as unknown as Prepared;

const mouth = (skipped?: string): FrameEditor =>
  ({
    name: 'mouth',
    report: () => ({
      engine: 'classical',
      edited: skipped ? 0 : 90,
      frames: 100,
      bank_patches: 12,
      mean_abs_openness_error: 0.1,
      skipped,
    }),
    edit: async () => {},
    dispose: () => {},
  }) as unknown as FrameEditor;

const chainWith = (editor: FrameEditor): EditorChain => ({
  videoSource: '/tmp/v.mp4',
  editors: [editor],
  mouth: editor,
  lipSync: { mode: 'embedded', model: 'lipsync2' },
  [Symbol.dispose]: () => {},
});

describe('buildReport', () => {
  it('should report the mouth edit with its figures, the voice and the stage times', () => {
    const log = new RenderLog();
    log.apply('lip_sync_correction');
    log.stagesMs.encode = 1200;
    const speech = {
      timing: 'alignment' as const,
      language: 'en',
      words: [{ word: 'Hi.', start: 0.1, end: 0.4, confidence: 1 }],
    };
    const report = buildReport(
      prepared,
      chainWith(mouth()),
      null,
      speech,
      { path: 'frames', frames: 100 },
      log,
    );
    expect(report.speech).toEqual({ timing: 'alignment', words: 1, language: 'en' });
    expect(report.options_applied).toEqual(['lip_sync_correction']);
    expect(report.lip_sync).toMatchObject({ mode: 'embedded', frames_edited: 90, engine: 'classical' });
    expect(report.voice).toEqual({ engine: 'piper', voice_id: 'en_US-joe-medium' });
    expect(report.stages_ms).toEqual({ encode: 1200 });
    expect(report.output).toEqual({ width: 640, height: 360, fps: 25, duration_sec: 4, fit: 'loop' });
  });

  it('should take back a mouth edit that did not happen', () => {
    const log = new RenderLog();
    log.apply('lip_sync_correction');
    log.apply('captions');
    const report = buildReport(
      prepared,
      chainWith(mouth('no face in the source')),
      null,
      null,
      { path: 'frames', frames: 100 },
      log,
    );
    expect(report.options_applied).toEqual(['captions']);
    expect(report.speech).toBeUndefined();
    expect(report.lip_sync).toMatchObject({ mode: 'none', skipped: 'no face in the source' });
    expect(report.notes).toContain(
      'lip_sync_correction with new speech: not applied (no face in the source)',
    );
  });
});
