/**
 * @module pipeline/steps/visual
 * Per-frame observations from the container's vision engines (one decode, sampled frames),
 * stored once per job; labels and numbers are derived later by src/analytics/visual.
 */
import type { AnalysisOptions } from '../../contract/jobs.js';
import type { FrameObservation } from '../../contract/media.js';
import type { Step, StepContext } from '../context.js';
import { probeSource } from './probe.js';

const wantsVisual = (ctx: StepContext) => (ctx.job.options as AnalysisOptions).visual_analytics;

export const visionStep: Step = {
  name: 'vision',
  weight: 35,
  when: (job) => (job.options as AnalysisOptions).visual_analytics === true,
  async run(ctx) {
    await frameObservations(ctx);
  },
};

/** Null when the input has no video stream (audio-only input with visual_analytics=true). */
export async function frameObservations(ctx: StepContext): Promise<FrameObservation[] | null> {
  if (!wantsVisual(ctx)) return null;
  const probe = await probeSource(ctx);
  if (!probe.video) return null;
  return ctx.memo('vision', async () => {
    const { body, hints } = await ctx.source();
    const frames: FrameObservation[] = [];
    let lastReport = 0;
    for await (const frame of ctx.media.observeFrames(body, hints)) {
      frames.push(frame);
      if (probe.duration_sec > 0 && frame.time - lastReport >= 2) {
        lastReport = frame.time;
        await ctx.report(frame.time / probe.duration_sec);
      }
    }
    return frames;
  });
}
