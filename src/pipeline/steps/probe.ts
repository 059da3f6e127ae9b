/**
 * @module pipeline/steps/probe
 * Reads the input's container and streams (ffprobe in the media container). Input that is not
 * media, or has nothing the job can use, fails the job at once with a clear message.
 */
import type { ProbeResult } from '../../contract/media.js';
import { UnrecoverableError } from '../../media/errors.js';
import type { Step, StepContext } from '../context.js';

/**
 * The source's probe, once per job. `fromRender`: a render of the job was sent the source, so its
 * own probe is asked for (the source crosses once); only if none runs is the source read again.
 */
export async function probeSource(ctx: StepContext, { fromRender = false } = {}): Promise<ProbeResult> {
  const probe = await ctx.memo('probe', async () => {
    const told = fromRender ? await ctx.media.renderProbe() : null;
    return told ?? ctx.media.probe();
  });
  // A resumed job reads the memo: later budgets still follow the real duration.
  ctx.media.setMedia({ durationSec: probe.duration_sec });
  return probe;
}

/** A processing job needs a picture: the probe of a file without one fails the job. */
export function requireVideo(probe: ProbeResult): ProbeResult {
  if (!probe.video) throw new UnrecoverableError('the file has no video stream to process');
  return probe;
}

export const probeStep: Step = {
  name: 'probe',
  weight: 5,
  async run(ctx) {
    const probe = await probeSource(ctx);
    if (!probe.video && !probe.audio) throw new UnrecoverableError('the file has no audio or video stream');
    if (ctx.job.kind === 'processing') requireVideo(probe);
  },
};
