/**
 * @module pipeline/steps/analysis
 * The analysis plan: probe → (speech and visual steps) → the result JSON in R2.
 */
import { AUDIO_SECTION_MARKER } from '../../contract/result.js';
import { r2Keys } from '../../storage/keys.js';
import type { Step, StepContext } from '../context.js';
import type { Plan } from '../plans.js';
import { probeSource, probeStep } from './probe.js';

const resultStep: Step = {
  name: 'result',
  weight: 5,
  async run(ctx) {
    const probe = await probeSource(ctx);
    const result = {
      'Audio Section': AUDIO_SECTION_MARKER,
      summary: { duration_sec: round3(probe.duration_sec) },
    };
    await ctx.bucket.put(r2Keys.result(ctx.job.video_id), JSON.stringify(result), {
      httpMetadata: { contentType: 'application/json' },
    });
  },
};

const round3 = (n: number) => Math.round(n * 1000) / 1000;

export const analysisPlan: Plan = {
  steps: [probeStep, resultStep],
  finish: async (ctx: StepContext) => ({ result_key: r2Keys.result(ctx.job.video_id) }),
};
