/**
 * @module contract/jobs
 * Job status values, the status response, and the options of each job kind.
 */
import { z } from 'zod';

export const JOB_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
/** `not_found` is reported by the status endpoint, never stored. */
export type ReportedStatus = JobStatus | 'not_found';

export type JobKind = 'analysis' | 'processing';

/**
 * What a completed processing job really did (extension of the status response): which options
 * took effect, how lip sync was done, how captions were timed, how the video was fitted to new
 * speech, and notes for anything requested but not applied.
 */
export const ProcessingReport = z.object({
  options_applied: z.array(z.enum(['blur_background', 'eye_contact_correction', 'lip_sync_correction'])),
  lip_sync: z
    .object({
      mode: z.enum(['offset', 'embedded', 'remote', 'none']),
      /** Audio shift applied in offset mode, ms (positive: the audio was late and was pulled earlier). */
      audio_shift_ms: z.number().nullable(),
    })
    .nullable(),
  captions: z.enum(['alignment', 'even-split']).nullable(),
  /** Which engine and voice spoke synthesized speech (absent when the output keeps or was given its speech). */
  voice: z.object({ engine: z.string(), voice_id: z.string() }).optional(),
  output: z.object({
    width: z.number().int(),
    height: z.number().int(),
    fps: z.number(),
    duration_sec: z.number(),
    /** `source`: as long as the source; `loop`/`trim`: fitted to the new speech. */
    fit: z.enum(['source', 'loop', 'trim']),
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

export const VOICE_GENERATORS = ['0', '1', '2'] as const;
export type VoiceGenerator = (typeof VOICE_GENERATORS)[number];
export const LIP_SYNC_MODELS = ['lipsync2'] as const;

/** The validated options of a processing job, as the pipeline receives them. */
export interface ProcessOptions {
  description: string | null;
  blur_background: boolean;
  voice_generator: VoiceGenerator;
  /** Only meaningful with voice_generator 1; null otherwise. */
  voice_id: string | null;
  /** Only meaningful with voice_generator 1; never echoed back to clients. */
  credential_voice_generator: string | null;
  lip_sync_correction: boolean;
  lip_sync_correction_model: (typeof LIP_SYNC_MODELS)[number];
  eye_contact_correction: boolean;
  /** Which speech the output carries. */
  speech: 'original' | 'synthesized' | 'supplied';
}

export interface AnalysisOptions {
  visual_analytics: boolean;
}

/** Where a job's input lives in R2, plus what the client said about it. */
export interface SourceRef {
  key: string;
  size: number;
  filename: string | null;
  content_type: string | null;
}
