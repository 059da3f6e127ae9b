/**
 * @module containers/media/engines/render/render-probes
 * The probe a job's render made of its source, for `GET /render/probe` of that job: a processing
 * job sends its source once, with the render, and the Worker still learns the source's real
 * duration (its deadline) and checks the file, with `POST /probe`'s very answer, as soon as the
 * render has probed it. The render and the question may arrive in either order; an answer waits
 * at most `RENDER_PROBE_WAIT_MS` for a render of the job to start (then the Worker probes the
 * source itself) and is kept that long after the render ended.
 */
import { mediaConfig } from '../../core/config.js';
import { MediaError } from '../../core/errors.js';
import type { ProbeAnswer } from '../../core/probe-answer.js';

export const RENDER_PROBE_WAIT_MS = mediaConfig().render.probeWaitMs;

/** No render of the job started within the wait: the Worker probes the source itself (404). */
export class NoRenderProbe extends MediaError {
  constructor(jobId: string) {
    super('no_render', `no render of job ${jobId} is running here`, 404);
    this.name = 'NoRenderProbe';
  }
}

interface Entry {
  probe: Promise<ProbeAnswer>;
  settle: { resolve(p: ProbeAnswer | Promise<ProbeAnswer>): void; reject(err: unknown): void };
  started: boolean;
  timer: ReturnType<typeof setTimeout>;
}

const entries = new Map<string, Entry>();

/** The job's entry, made by whichever comes first; it expires `RENDER_PROBE_WAIT_MS` after `forgetLater`. */
function entryOf(jobId: string): Entry {
  const known = entries.get(jobId);
  if (known) return known;
  let settle!: Entry['settle'];
  const probe = new Promise<ProbeAnswer>((resolve, reject) => (settle = { resolve, reject }));
  probe.catch(() => {}); // an answer nobody asked for
  const entry: Entry = { probe, settle, started: false, timer: undefined! };
  entries.set(jobId, entry);
  forgetLater(jobId, entry, () => settle.reject(new NoRenderProbe(jobId)));
  return entry;
}

function forgetLater(jobId: string, entry: Entry, then = () => {}) {
  clearTimeout(entry.timer);
  entry.timer = setTimeout(() => {
    if (entries.get(jobId) === entry) entries.delete(jobId);
    then();
  }, RENDER_PROBE_WAIT_MS);
  entry.timer.unref?.();
}

/**
 * A render of `jobId` starts: `answer` gives the questions `POST /probe`'s answer for its source,
 * `failed` the reason it got none; `ended` when the render is over (an unsettled entry then fails).
 */
export function startRenderProbe(jobId: string) {
  let entry = entryOf(jobId);
  // A retried render of the job: a fresh entry, the former one's answer is stale.
  if (entry.started) {
    entries.delete(jobId);
    entry = entryOf(jobId);
  }
  entry.started = true;
  clearTimeout(entry.timer);
  return {
    answer: (p: Promise<ProbeAnswer>) => entry.settle.resolve(p),
    failed: (err: unknown) => entry.settle.reject(err),
    ended: () => {
      entry.settle.reject(new NoRenderProbe(jobId)); // no effect once settled
      forgetLater(jobId, entry);
    },
  };
}

/** The probe answer of `jobId`'s render, once made; rejects with its reason, or NoRenderProbe. */
export function renderProbe(jobId: string): Promise<ProbeAnswer> {
  return entryOf(jobId).probe;
}
