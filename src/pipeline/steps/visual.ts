/**
 * @module pipeline/steps/visual
 * Per-frame observations from the container's vision engines (one decode, sampled frames),
 * reduced to compact records as they stream in and stored once per job; labels and numbers are
 * derived later by src/analytics/visual.
 */
import type { JobOf } from '../../jobs/state.js';
import type { CompactFrame } from '../../contract/media.js';
import type { Step, StepContext } from '../context.js';
import { probeSource } from './probe.js';

export const visionStep: Step<JobOf<'analysis'>> = {
  name: 'vision',
  weight: 35,
  when: (job) => job.options.visual_analytics,
  async run(ctx) {
    await frameObservations(ctx);
  },
};

/**
 * The clip's frames as compact records, or null when the input has no video stream (audio-only
 * input with visual_analytics=true). Only compact records are kept, so the Worker's memory
 * (128 MB) grows by ≈ 1.3 KB of heap per sampled frame (≈ 0.7 KB of JSON) instead of the ≈ 40 KB
 * a full observation takes (measured on the labelled clips): an hour at 2 fps is ≈ 9 MB, not
 * ≈ 290 MB.
 */
export async function frameObservations(ctx: StepContext<JobOf<'analysis'>>): Promise<CompactFrame[] | null> {
  if (!ctx.job.options.visual_analytics) return null;
  const probe = await probeSource(ctx);
  if (!probe.video) return null;
  // The container compacts each frame (its `/vision` answer); the Worker keeps them as they come.
  return ctx.memo('vision', async () => {
    const out: CompactFrame[] = [];
    let lastReport = 0;
    for await (const frame of ctx.media.observeFrames()) {
      out.push(frame);
      if (probe.duration_sec > 0 && frame.time - lastReport >= 2) {
        lastReport = frame.time;
        await ctx.report(frame.time / probe.duration_sec);
      }
    }
    return out;
  });
}
