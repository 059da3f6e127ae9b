/**
 * @module media/budget
 * The wall-clock budget of each container request of a job, as pure functions of the media's
 * real duration (measured from the content by the container's probe) and the upload's size.
 * The container enforces the same budget on its child processes (`x-work-budget-ms`); the
 * Worker's own fetch gives up a little later, so the container's plain message wins the race.
 */
import {
  DEFAULT_MAX_MEDIA_DURATION_SEC,
  MAX_ADMISSION_WAIT_SEC,
  WORK_BUDGET_BASE_SEC,
  WORK_BUDGET_PER_MEDIA_SEC,
} from '../contract/media.js';

/** Reading the upload into the container before any duration is known: 1 s per 20 MB. */
export const PROBE_BYTES_PER_SEC = 20 * 2 ** 20;
/** The Worker's fetch outlives the container's budget by this much. */
export const FETCH_MARGIN_MS = 30_000;
/**
 * How long a request may wait in the container for its key's turn before its budget starts
 * (sent as `x-admission-wait-ms`; the fetch allows for it on top of the budget).
 */
export const ADMISSION_WAIT_MS = MAX_ADMISSION_WAIT_SEC * 1000;

/** Pure: when the Worker's fetch of a request with `budgetMs` gives up (ms after sending it). */
export const fetchTimeoutMs = (budgetMs: number) => budgetMs + ADMISSION_WAIT_MS + FETCH_MARGIN_MS;

export interface BudgetEnv {
  MAX_MEDIA_DURATION_SEC?: string;
}

/**
 * Pure: the budget of one request (ms). Before the duration is known (the probe itself), it
 * follows the upload's size.
 * @example workBudgetMs({ durationSec: 60 }) // → 720000
 */
export function workBudgetMs({
  durationSec,
  sizeBytes = 0,
}: {
  durationSec: number | null;
  sizeBytes?: number;
}): number {
  const seconds =
    durationSec === null
      ? WORK_BUDGET_BASE_SEC + sizeBytes / PROBE_BYTES_PER_SEC
      : WORK_BUDGET_BASE_SEC + WORK_BUDGET_PER_MEDIA_SEC * durationSec;
  return Math.round(seconds * 1000);
}

export function maxMediaDurationSec(env: BudgetEnv): number {
  const n = Number(env.MAX_MEDIA_DURATION_SEC);
  return env.MAX_MEDIA_DURATION_SEC && Number.isFinite(n) && n > 0 ? n : DEFAULT_MAX_MEDIA_DURATION_SEC;
}
