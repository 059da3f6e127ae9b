/**
 * @module pipeline/steps/probe
 * Reads the input's container and streams (ffprobe in the media container). Input that is not
 * media, or has nothing the job can use, fails the job at once with a clear message.
 */
import type { ProbeResult } from '../../contract/media.js';
import { UnrecoverableError } from '../../media/errors.js';
import type { Step, StepContext } from '../context.js';

export async function probeSource(ctx: StepContext): Promise<ProbeResult> {
  const probe = await ctx.memo('probe', async () => {
    const { body, hints } = await ctx.source();
    return ctx.media.probe(body, hints);
  });
  // A resumed job reads the memo: later budgets still follow the real duration.
  ctx.media.setMedia({ durationSec: probe.duration_sec });
  return probe;
}

export const probeStep: Step = {
  name: 'probe',
  weight: 5,
  async run(ctx) {
    const probe = await probeSource(ctx);
    if (!probe.video && !probe.audio) throw new UnrecoverableError('the file has no audio or video stream');
    if (ctx.job.kind === 'processing' && !probe.video && !probe.audio) {
      throw new UnrecoverableError('the file has no video stream to process');
    }
  },
};
