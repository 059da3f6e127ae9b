import { describe, expect, it } from 'vitest';
import { decoderArgs } from '../../../../../../containers/media/engines/frame-pipeline/ffmpeg-args.js';
import type { RenderPlan } from '../../../../../../containers/media/engines/frame-pipeline/plan.js';

const plan: RenderPlan = {
  width: 1280,
  height: 720,
  fps: 25,
  durationSec: 10,
  fit: 'source',
  sourceHasAudio: true,
};

describe('decoderArgs', () => {
  it('should skip non-reference frames before the input only when asked', () => {
    const size = { loop: false, width: 256, height: 256, pixFmt: 'rgb24' as const, rough: true };
    const all = decoderArgs('in.mp4', plan, size);
    const skip = decoderArgs('in.mp4', plan, { ...size, skipNonReference: true });
    expect(all).not.toContain('-skip_frame');
    expect(skip.slice(skip.indexOf('-skip_frame'), skip.indexOf('-skip_frame') + 2)).toEqual([
      '-skip_frame',
      'noref',
    ]);
    expect(skip.indexOf('-skip_frame')).toBeLessThan(skip.indexOf('-i'));
    // The fps filter fills the skipped frames' slots (every output frame is still there), after
    // the scaler, which then scales the decoded frames only.
    expect(skip[skip.indexOf('-vf') + 1]).toMatch(/^scale=256:256:flags=area,format=rgb24,fps=25$/);
    expect(all[all.indexOf('-vf') + 1]).toMatch(/^fps=25,scale=/);
  });
});
