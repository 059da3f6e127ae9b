/**
 * @module contract/jobs
 * Job status values, the status response, and each job kind with its options.
 */
import { z } from 'zod';
import { AppliedOption, type AnalysisOptions, type ProcessOptions } from './options.js';
import { CAPTION_TIMINGS, LIP_SYNC_MODES, OUTPUT_FITS } from './render.js';

export const JOB_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
/** `not_found` is reported by the status endpoint, never stored. */
export type ReportedStatus = JobStatus | 'not_found';

/** A job's kind and the options of that kind: `JobRecord` is a union keyed by `kind`. */
export type JobOptions =
  { kind: 'analysis'; options: AnalysisOptions } | { kind: 'processing'; options: ProcessOptions };
export type JobKind = JobOptions['kind'];

/**
 * What a completed processing job really did (extension of the status response): which options
 * took effect, how lip sync was done, how captions were timed, how the video was fitted to new
 * speech, and notes for anything requested but not applied.
 */
export const ProcessingReport = z.object({
  options_applied: z.array(AppliedOption),
  lip_sync: z
    .object({
      mode: z.enum(LIP_SYNC_MODES),
      /** Audio shift applied in offset mode, ms (positive: the audio was late and was pulled earlier). */
      audio_shift_ms: z.number().nullable(),
    })
    .nullable(),
  captions: z.enum(CAPTION_TIMINGS).nullable(),
  /** Which engine and voice spoke synthesized speech (absent when the output keeps or was given its speech). */
  voice: z.object({ engine: z.string(), voice_id: z.string() }).optional(),
  output: z.object({
    width: z.number().int(),
    height: z.number().int(),
    fps: z.number(),
    duration_sec: z.number(),
    /** `source`: as long as the source; `loop`/`trim`: fitted to the new speech. */
    fit: z.enum(OUTPUT_FITS),
  }),
  notes: z.array(z.string()),
});
export type ProcessingReport = z.infer<typeof ProcessingReport>;

/**
 * Longest long-poll of the status endpoint (`?wait=`), in seconds: well below the 100 s after which
 * Cloudflare's edge gives up on an answer that has not started.
 */
export const MAX_STATUS_WAIT_SEC = 60;

export const StatusResponse = z.object({
  status: z
    .enum([...JOB_STATUSES, 'not_found'])
    .describe(
      "pending (queued) → processing → completed | failed. `not_found` (with HTTP 200) when no job of this API key has the id: unknown ids, malformed ids and other keys' ids look the same.",
    ),
  progress: z.number().min(0).max(100).describe('Percent complete; 100.0 when completed; 0 for not_found.'),
  download_url: z.string().nullable().meta({
    format: 'uri',
    description:
      'Completed processing jobs only: a signed link `{storage_url}/files/{key}?expires=…&token=…`, fetched with a plain GET and no API key, valid 24 h (DOWNLOAD_URL_TTL_SEC). Each poll returns a fresh link. Null otherwise.',
  }),
  /** The `AnalysisResult` (contract/result.ts); streamed from storage as it is, so not re-validated here. */
  result: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe('Completed analysis jobs only; null otherwise.'),
  error_message: z
    .string()
    .nullable()
    .describe('Only when status is failed: what went wrong (e.g. the upload is not decodable media).'),
  processing_report: ProcessingReport.optional().describe(
    'Extension, completed processing jobs only (absent otherwise): what the render really did. An option listed in `options_applied` took effect; one requested but missing from it is explained in `notes` (e.g. lip sync confidence too low, no face).',
  ),
});
export type StatusResponse = z.infer<typeof StatusResponse>;

/** Where a job's input lives in R2, plus what the client said about it. */
export interface SourceRef {
  key: string;
  size: number;
  filename: string | null;
  content_type: string | null;
}
