/**
 * @module env
 * The Worker's bindings and variables (see wrangler.toml; secrets in `.dev.vars` locally).
 */
import type { JobMessage, JobObject } from './jobs/job-object.js';
import type { TenantObject } from './jobs/tenant-object.js';
import type { JobRunner } from './pipeline/consumer.js';
import type { EdgeAudio } from '../wasm/edge-audio/worker.js';

export interface Env {
  MEDIA: R2Bucket;
  JOB: DurableObjectNamespace<JobObject>;
  MEDIA_CONTAINER: DurableObjectNamespace;
  JOBS: Queue<JobMessage>;
  /** One per tenant (API key): rate limits, concurrent jobs, idempotency keys, resumable uploads. */
  TENANT: DurableObjectNamespace<TenantObject>;

  STORAGE_URL?: string;
  MAX_UPLOAD_BYTES?: string;
  DOWNLOAD_URL_TTL_SEC?: string;
  JOB_STALL_TIMEOUT_MS?: string;
  JOB_PENDING_REDISPATCH_MS?: string;
  JOB_MAX_RUN_MS?: string;
  JOB_MAX_REDISPATCHES?: string;
  CONTAINER_URL?: string;
  DEV_API_KEY?: string;
  /** Default requests per minute per key (all API routes but status). Default 120. */
  RATE_LIMIT_PER_MIN?: string;
  /** Default status polls per minute per key. Default 600. */
  STATUS_RATE_LIMIT_PER_MIN?: string;
  /** Default concurrent jobs (pending + processing) per key. Default 5. */
  MAX_CONCURRENT_JOBS?: string;
  /** Which header tells the client's address: `CF-Connecting-IP` (default) or `X-Forwarded-For` (development). */
  CLIENT_ADDRESS_HEADER?: string;
  /** Longest media accepted (seconds, measured from the content). Default 7200 (2 h). */
  MAX_MEDIA_DURATION_SEC?: string;
  /** "1": jobs run detached from their queue delivery (local development and tests; see wrangler.toml). */
  QUEUE_DETACHED_RUNS?: string;
  /** Days a finished job's files and record are kept. Default 7. */
  RETENTION_DAYS?: string;
  /** Lifetime of an Idempotency-Key (seconds). Default 24 h. */
  IDEMPOTENCY_TTL_SEC?: string;
  /** Resumable uploads: part size (bytes, ≥ 5 MiB) and idle time before an unfinished upload is aborted. */
  UPLOAD_PART_BYTES?: string;
  UPLOAD_ABANDON_AFTER_SEC?: string;
  /** Rows of the batched VAD run (1: exact sequential). Default 8. */
  VAD_MAX_BATCH?: string;
  /** Edge budget: inputs up to this size have their audio extracted in the Worker (ffmpeg.wasm). */
  EDGE_AUDIO_MAX_BYTES?: string;
  /**
   * The `edge-audio` Worker (ffmpeg.wasm, wasm/edge-audio), entrypoint `EdgeAudio`. Absent: every
   * input's audio is extracted by the media container.
   */
  EDGE_AUDIO?: Service<EdgeAudio>;
  /** This Worker's own `JobRunner` entrypoint: detached job runs (`QUEUE_DETACHED_RUNS`, local development). */
  JOB_RUNNER?: Service<JobRunner>;

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
