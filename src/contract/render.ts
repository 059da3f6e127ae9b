/**
 * @module contract/render
 * The media container's `POST /render`: the request's `options` part, the `x-render-report` header
 * it answers with, and its error codes. The Worker builds the request and reads the report
 * (`media/client.ts`, `media/render-report.ts`); the container parses the request and builds the
 * report (`containers/media/engines/render`). Both read these schemas.
 */
import { z } from 'zod';
import { MEDIA_PROBLEM_CODES } from './media.js';
import { RenderToggles } from './options.js';

/**
 * The `options` part (JSON). Its toggles are the processing form's, defaults included: an option
 * the Worker leaves out renders as the API would have defaulted it.
 */
export const RenderRequest = RenderToggles.extend({
  /** Text for a WebVTT caption track (mov_text in the MP4); null or blank: none. */
  captions: z.string().nullish(),
  /**
   * Time the new speech's words for the job's caption files: the render keeps them for
   * `GET /render/speech/{job}` (a render without a job keeps none) and counts them in its report.
   */
  speech_words: z.boolean().optional(),
});
/** What a caller sends: every field optional. */
export type RenderRequest = z.input<typeof RenderRequest>;
/** What the container renders with: every default applied. */
export type RenderOptions = z.output<typeof RenderRequest>;

export const LIP_SYNC_MODES = ['offset', 'embedded', 'remote', 'none'] as const;
export const OUTPUT_FITS = ['source', 'loop', 'trim'] as const;
/** How the caption track was timed: aligned to the speech, the recogniser's times for the script's words, or an even split. */
export const CAPTION_TIMINGS = ['alignment', 'transcription', 'even-split'] as const;
/** How the new speech's words got their times: aligned to the known script, or recognised. */
export const SPEECH_TIMINGS = ['alignment', 'transcription'] as const;

const count = z.number().finite();

/**
 * The render report (`x-render-report`, internal and verbose). The container builds it to this
 * type; the Worker parses it with the same schema (both ship from this repository): a header that
 * does not parse is a broken answer, not an older dialect.
 */
export const RenderReport = z.object({
  output: z.object({
    width: count,
    height: count,
    fps: count,
    duration_sec: count,
    /** `source`: as long as the source; `loop`/`trim`: fitted to the new speech. */
    fit: z.enum(OUTPUT_FITS),
  }),
  /** Which pipeline shape ran (diagnostics). */
  path: z.enum(['passthrough', 'mask-pipe', 'frames']).optional(),
  /** Everything that took effect: the applied options and `captions`. */
  options_applied: z.array(z.string()),
  // Diagnostics: a NaN of the container arrives as null (JSON) and must not fail the job.
  stages_ms: z.record(z.string(), z.number().nullable()).optional(),
  frames: z.number().nullable().optional(),
  /** `measured_lag_ms` is the audio shift of offset mode; engines add their own diagnostics. */
  lip_sync: z
    .object({
      mode: z.enum(LIP_SYNC_MODES),
      measured_lag_ms: z.number().nullable().optional(),
    })
    .catchall(z.unknown())
    .optional(),
  blur: z.record(z.string(), z.unknown()).optional(),
  editors: z.record(z.string(), z.unknown()).optional(),
  captions: z.object({ cues_from: z.enum(CAPTION_TIMINGS), words: z.number() }).optional(),
  /**
   * The new speech's words (`GET /render/speech/{job}` answers them): how they were timed, how
   * many, their language. Absent without new speech or when none of it could be timed.
   */
  speech: z
    .object({
      timing: z.enum(SPEECH_TIMINGS),
      words: count,
      language: z.string().nullable(),
    })
    .optional(),
  /** Which engine and voice spoke the new speech, when it was synthesized by /tts (read from the WAV's INFO chunk). */
  voice: z.object({ engine: z.string(), voice_id: z.string() }).optional(),
  notes: z.array(z.string()),
});
/** What the container sends. */
export type RenderReport = z.input<typeof RenderReport>;

/**
 * `GET /render/speech/{job}`: the new speech of the job's last render as timed words on the
 * OUTPUT's timeline (the output carries the speech from its first sample and ends with it), for
 * the job's caption files. `language` is a Whisper code (ISO 639-1). 404 `no_render` when the
 * container keeps none for the job (no render of it lately, or it had no timed speech).
 */
export const RenderSpeech = z.object({
  timing: z.enum(SPEECH_TIMINGS),
  language: z.string().min(2).max(12),
  words: z.array(
    z.object({
      word: z.string(),
      start: z.number().finite().min(0),
      end: z.number().finite().min(0),
      confidence: z.number().finite(),
    }),
  ),
});
export type RenderSpeech = z.infer<typeof RenderSpeech>;

/**
 * The render's error codes (`{ error: { code, message } }`). The input's problems are 4xx and never
 * retried (`options_invalid` 400, `unsupported_media_type` 415, the rest 422); an engine's failure
 * is 500 and retried. `media_unreadable`, `speech_unreadable` and `encode_failed` are either: 422
 * for a file that fails the same way every time, 500 for machine trouble.
 */
export const RenderErrorCode = z.enum([
  // The request
  'options_invalid',
  'unsupported_media_type',
  'multipart_invalid',
  'source_missing',
  // The media (MEDIA_PROBLEM_CODES and what ffmpeg could not read or write)
  ...MEDIA_PROBLEM_CODES,
  'media_unreadable',
  'speech_unreadable',
  'encode_failed',
  'output_too_large',
  // The engines
  'render_failed',
  'segmenter_unavailable',
  'lipsync_unavailable',
  'lipsync_provider_error',
  'gaze_provider_error',
]);
export type RenderErrorCode = z.infer<typeof RenderErrorCode>;

/** Every error body of the container (each engine has its codes; the Worker reads only the message). */
export const MediaErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
