/**
 * @module bench/support/step-times
 * A job's own stage times, read back from the service's log: the Worker prints one JSON line per
 * finished step (`src/pipeline/step-log.ts`: `{"video_id", "step", "in"?, "ms"}`), wrangler
 * prefixes it with the Worker's name; the media container prints the parts of its own work for a
 * step (`{"video_id", "step", "within", "ms"}`: the render's receive, probe, encode, send). Start
 * the service with its output in a file (`npm start > service.log 2>&1`) and hand the bench that
 * file.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';

export interface StepTime {
  step: string;
  /** The concurrent group the step ran in; absent for a top-level step. */
  in?: string;
  /** The Worker step this is a part of (the container's own stages of that step's request). */
  within?: string;
  ms: number;
}

/** The step lines of `videoId` in `log`, in the order they finished. */
export function parseStepTimes(log: string, videoId: string): StepTime[] {
  const steps: StepTime[] = [];
  for (const line of log.split('\n')) {
    if (!line.includes(videoId)) continue;
    const json = line.slice(line.indexOf('{'));
    try {
      const rec = JSON.parse(json) as {
        video_id?: string;
        step?: unknown;
        in?: unknown;
        within?: unknown;
        ms?: unknown;
      };
      if (rec.video_id !== videoId || typeof rec.step !== 'string' || typeof rec.ms !== 'number') continue;
      steps.push({
        step: rec.step,
        ...(typeof rec.in === 'string' ? { in: rec.in } : {}),
        ...(typeof rec.within === 'string' ? { within: rec.within } : {}),
        ms: rec.ms,
      });
    } catch {
      // Another line that names the job (an error, a warning): not a step time.
    }
  }
  return steps;
}

export interface StageRow {
  stage: string;
  sec: number;
  /** Share of the client's wall time, 0–1. */
  share: number;
}

/**
 * The stage table of one job: the client's upload, the top-level steps in order (a concurrent
 * group's members indented under it), and the rest of the wall time (queue, dispatch, the poll
 * interval, status reads) as one row. A step that fails logs no time, so for a failed job the
 * rest row holds it too, and says so.
 */
export function stageRows(
  steps: StepTime[],
  uploadSec: number,
  wallSec: number,
  completed = true,
): StageRow[] {
  const row = (stage: string, sec: number): StageRow => ({
    stage,
    sec,
    share: wallSec > 0 ? sec / wallSec : 0,
  });
  const rows = [row('upload (client → Worker → R2)', uploadSec)];
  let stepsSec = 0;
  // A concurrent group's members follow it, indented one more level per nested group.
  const addStep = (s: StepTime, depth: number) => {
    const members = steps.filter((t) => t.in === s.step);
    const indent = '  '.repeat(depth) + (depth > 0 ? '∥ ' : '');
    rows.push(row(`${indent}${s.step}${members.length ? ' (concurrent)' : ''}`, s.ms / 1000));
    for (const m of members) addStep(m, depth + 1);
    for (const p of steps.filter((t) => t.within === s.step))
      rows.push(row(`${'  '.repeat(depth + 1)}· ${p.step}`, p.ms / 1000));
  };
  for (const s of steps.filter((t) => t.in === undefined && t.within === undefined)) {
    addStep(s, 0);
    stepsSec += s.ms / 1000;
  }
  const rest = completed
    ? 'queue + dispatch + polling'
    : 'the failed step (logs no time) + queue + dispatch + polling';
  rows.push(row(`${rest} (wall − upload − steps)`, Math.max(0, wallSec - uploadSec - stepsSec)));
  return rows;
}

/** Reads a growing log from `offset`: the bench notes the size before a job and reads the tail after. */
export function logSize(path: string): number {
  return statSync(path).size;
}

export function readLogFrom(path: string, offset: number): string {
  const size = logSize(path);
  if (size <= offset) return '';
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(size - offset);
    readSync(fd, buf, 0, buf.length, offset);
    return buf.toString('utf8');
  } finally {
    closeSync(fd);
  }
}
