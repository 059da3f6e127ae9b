/**
 * @module env
 * The Worker's bindings and variables (see wrangler.toml; secrets in `.dev.vars` locally).
 */
import type { JobMessage, JobObject } from './jobs/job-object.js';

export interface Env {
  MEDIA: R2Bucket;
  JOB: DurableObjectNamespace<JobObject>;
  MEDIA_CONTAINER: DurableObjectNamespace;
  JOBS: Queue<JobMessage>;

  STORAGE_URL?: string;
  MAX_UPLOAD_BYTES?: string;
  DOWNLOAD_URL_TTL_SEC?: string;
  JOB_STALL_TIMEOUT_MS?: string;
  JOB_PENDING_REDISPATCH_MS?: string;
  JOB_MAX_RUN_MS?: string;
  JOB_MAX_REDISPATCHES?: string;
  CONTAINER_URL?: string;
  DEV_API_KEY?: string;
  /** Edge budget: inputs up to this size have their audio extracted in the Worker (ffmpeg.wasm). */
  EDGE_AUDIO_MAX_BYTES?: string;

  /** Secret: HMAC key of download links. */
  SIGNING_SECRET?: string;
  /** Secret: bearer token of the /admin routes. */
  ADMIN_TOKEN?: string;
}

/** A numeric variable with a default, tolerant of empty strings. */
export function numberVar(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}
