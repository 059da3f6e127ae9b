/**
 * @module pipeline/concurrent
 * Steps that do not depend on each other run at the same time: `concurrentSteps` makes one step
 * of several lanes, each lane an ordered list of steps, all lanes started together. Used by the
 * analysis plan to run the vision step beside the speech steps: the container's cores are shared
 * between Whisper and the vision pool instead of one waiting for the other, and the idle gaps of
 * one lane (uploads, VAD in the Worker, R2 writes) are filled by the other.
 */
import type { JobRecord } from '../jobs/state.js';
import type { Step, StepContext } from './context.js';
import { logStepTime } from './step-log.js';

/**
 * One step running `lanes` concurrently (steps within a lane in order). Inner steps keep their
 * `when`, their weights (the group's weight is their sum) and their own progress reports, which
 * are combined into the group's. Every lane is waited for, so a failure in one never leaves the
 * other running unobserved; the first lane's error (in lane order) is thrown.
 *
 * @example
 * const speechAndVision = concurrentSteps('speech+vision', [[audioStep, asrStep], [visionStep]]);
 */
export function concurrentSteps<J extends JobRecord>(name: string, lanes: Step<J>[][]): Step<J> {
  const all = lanes.flat();
  return {
    name,
    weight: all.reduce((sum, s) => sum + s.weight, 0),
    async run(ctx) {
      const active = lanes.map((lane) => lane.filter((s) => !s.when || s.when(ctx.job)));
      const steps = active.flat();
      const total = steps.reduce((sum, s) => sum + s.weight, 0) || 1;
      const fractions = new Map<Step<J>, number>(steps.map((s) => [s, 0]));
      const report = () =>
        ctx.report(steps.reduce((sum, s) => sum + s.weight * fractions.get(s)!, 0) / total);
      const runLane = async (lane: Step<J>[]) => {
        for (const step of lane) {
          const startedAt = Date.now();
          const inner: StepContext<J> = {
            ...ctx,
            report: (fraction) => {
              fractions.set(step, Math.min(1, Math.max(fractions.get(step)!, fraction)));
              return report();
            },
          };
          await step.run(inner);
          fractions.set(step, 1);
          logStepTime(ctx.job.video_id, step.name, startedAt, name);
          await report();
        }
      };
      const settled = await Promise.allSettled(active.map(runLane));
      const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
      if (failed) throw failed.reason;
    },
  };
}
