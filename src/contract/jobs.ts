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
export type JobOptions = { kind: 'analysis'; options: AnalysisOptions } | { kind: 'processing'; options: ProcessOptions };
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

export const StatusResponse = z.object({
  status: z.enum([...JOB_STATUSES, 'not_found']),
  progress: z.number().min(0).max(100),
  download_url: z.string().nullable(),
  result: z.record(z.string(), z.unknown()).nullable(),
  error_message: z.string().nullable(),
  /** Extension: only on completed processing jobs. */
  processing_report: ProcessingReport.optional(),
});
export type StatusResponse = z.infer<typeof StatusResponse>;

/** Where a job's input lives in R2, plus what the client said about it. */
export interface SourceRef {
  key: string;
  size: number;
  filename: string | null;
  content_type: string | null;
}
