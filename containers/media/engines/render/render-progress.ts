/**
 * @module containers/media/engines/render/render-progress
 * How far each job's render has encoded, for `GET /render/progress/{job}`: the Worker asks while it
 * waits for the output and moves the job's progress with it (the render is most of a processing
 * job). A finished render's figure is kept a little while, then forgotten.
 */

/** How long a render's last figure stays after it ended (a question may cross its end). */
const KEPT_AFTER_END_MS = 30_000;

const fractions = new Map<string, number>();
const forgetTimers = new Map<string, ReturnType<typeof setTimeout>>();

/** A render of `jobId` starts: `set` its encoded fraction (0..1) as it goes; `ended` when it is over. */
export function trackRenderProgress(jobId: string) {
  clearTimeout(forgetTimers.get(jobId));
  forgetTimers.delete(jobId);
  fractions.set(jobId, 0);
  return {
    set: (fraction: number) => fractions.set(jobId, Math.max(fractions.get(jobId) ?? 0, fraction)),
    ended: () => {
      const timer = setTimeout(() => {
        fractions.delete(jobId);
        forgetTimers.delete(jobId);
      }, KEPT_AFTER_END_MS);
      timer.unref?.();
      forgetTimers.set(jobId, timer);
    },
  };
}

/** The encoded fraction of `jobId`'s render here (0..1), or null when none ran here lately. */
export const renderProgress = (jobId: string): number | null => fractions.get(jobId) ?? null;
