/**
 * @module jobs/limits
 * Watchdog limits read from the environment (wrangler.toml `[vars]`), with defaults.
 */
import type { WatchdogLimits } from './state.js';

export interface WatchdogEnv {
  JOB_STALL_TIMEOUT_MS?: string;
  JOB_PENDING_REDISPATCH_MS?: string;
  JOB_MAX_RUN_MS?: string;
  JOB_MAX_REDISPATCHES?: string;
}

const num = (value: string | undefined, fallback: number) => {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n) && n >= 0 ? n : fallback;
};

export function watchdogLimits(env: WatchdogEnv): WatchdogLimits {
  return {
    stallMs: num(env.JOB_STALL_TIMEOUT_MS, 180_000),
    pendingRedispatchMs: num(env.JOB_PENDING_REDISPATCH_MS, 60_000),
    maxRunMs: num(env.JOB_MAX_RUN_MS, 8 * 3_600_000),
    maxRedispatches: num(env.JOB_MAX_REDISPATCHES, 2),
  };
}

export interface RetentionEnv {
  RETENTION_DAYS?: string;
}

export const DEFAULT_RETENTION_DAYS = 7;

/** How long a finished job's files and record are kept (`RETENTION_DAYS`, fractions allowed). */
export const retentionMs = (env: RetentionEnv) =>
  num(env.RETENTION_DAYS, DEFAULT_RETENTION_DAYS) * 86_400_000;
