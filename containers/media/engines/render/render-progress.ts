/**
 * @module containers/media/engines/render/render-progress
 * How far each job's render has encoded, for `GET /render/progress/{job}`: the Worker asks while it
 * waits for the output and moves the job's progress with it (the render is most of a processing
 * job). A finished render's figure is kept a little while, then forgotten.
 */

/** How long a render's last figure stays after it ended (a question may cross its end). */
const KEPT_AFTER_END_MS = 30_000;

/** A job's encoded fraction, and once its render ended, the timer that forgets it. */
interface Entry {
  fraction: number;
  forget?: ReturnType<typeof setTimeout>;
}
const renders = new Map<string, Entry>();

/** A render of `jobId` starts: `set` its encoded fraction (0..1) as it goes; `ended` when it is over. */
export function trackRenderProgress(jobId: string) {
  clearTimeout(renders.get(jobId)?.forget);
  const entry: Entry = { fraction: 0 };
  renders.set(jobId, entry);
  return {
    set: (fraction: number) => {
      entry.fraction = Math.max(entry.fraction, fraction);
    },
    ended: () => {
      entry.forget = setTimeout(() => {
        if (renders.get(jobId) === entry) renders.delete(jobId);
      }, KEPT_AFTER_END_MS);
      entry.forget.unref?.();
    },
  };
}

/** The encoded fraction of `jobId`'s render here (0..1), or null when none ran here lately. */
export const renderProgress = (jobId: string): number | null => renders.get(jobId)?.fraction ?? null;
