/**
 * @module contract/options
 * Every request option of the two job kinds, once: its type, its default, its rules and the
 * sentence that documents it. The API's form parsing (`api/form-options.ts`), the job record, the
 * container's render request (`contract/render.ts`) and the OpenAPI form schemas all read these
 * schemas, so a default cannot differ between them.
 */
import { z } from 'zod';
import { SPOKEN_LANGUAGES, spokenLanguageOf } from './languages.js';

export const MAX_DESCRIPTION_CHARS = 5_000;
export const MAX_VOICE_ID_CHARS = 200;
export const MAX_CREDENTIAL_CHARS = 1_000;
/**
 * A provider credential goes out in an HTTP header: printable ASCII only (no CR/LF, no other
 * control or non-Latin-1 character), else the provider call could never succeed (issue #34: it was
 * retried for ten minutes, then the value was echoed in the error). The rule never quotes the value.
 */
export const CREDENTIAL_PATTERN = /^[\x20-\x7e]+$/;
export const CREDENTIAL_RULE =
  'may hold only printable ASCII characters (no line breaks or other control characters); the value is not shown';
/**
 * A voice id is one URL path segment at the provider: unreserved characters and "+" (espeak-ng's
 * variant names such as `en-gb+f3`; a sub-delimiter, allowed in a path segment and encoded by the
 * adapters anyway), and not `.` or `..`.
 */
export const VOICE_ID_PATTERN = /^(?!\.+$)[A-Za-z0-9._~+-]+$/;
export const VOICE_ID_RULE = 'may hold only letters, digits, ".", "_", "~", "+" and "-" (and not only dots)';

export const VOICE_GENERATORS = ['0', '1', '2'] as const;
export type VoiceGenerator = (typeof VOICE_GENERATORS)[number];
export const LIP_SYNC_MODELS = ['lipsync2'] as const;
export type LipSyncModel = (typeof LIP_SYNC_MODELS)[number];

/** The options a render applies: what the processing form and the container's render request share. */
export const RenderToggles = z.object({
  blur_background: z.boolean().default(true).describe('Blurs the background behind the person.'),
  lip_sync_correction: z.boolean().default(false).describe('Enables lip-sync enhancement.'),
  lip_sync_correction_model: z
    .enum(LIP_SYNC_MODELS)
    .default('lipsync2')
    .describe('Lip-sync model; anything else is 400 `invalid_field`.'),
  eye_contact_correction: z.boolean().default(false).describe('Enables gaze-alignment correction.'),
});

/** The on/off options a processing report lists in `options_applied` when they took effect. */
export const AppliedOption = RenderToggles.keyof().exclude(['lip_sync_correction_model']);
export type AppliedOption = z.infer<typeof AppliedOption>;

/** `POST /api/analyze-video`'s options. */
export const AnalysisOptions = z.object({
  visual_analytics: z
    .boolean()
    .default(false)
    .describe('When true, the video section (gestures, posture, gaze, face) is added to the result.'),
  language: z
    .preprocess((v) => (typeof v === 'string' ? spokenLanguageOf(v) : v), z.enum(SPOKEN_LANGUAGES))
    .optional()
    .describe(
      'Extension. The spoken language, as a Whisper language code (ISO 639-1, e.g. `de`); when absent it is detected from the speech. A BCP 47 tag or an ISO 639-2/3 code of the same language is taken as its code, in any case (`de-DE`, `pt_BR`, `deu` → `de`, `pt`, `de`): the region does not change what is heard. Speech is always transcribed in its language, never translated. Anything else is 400 `invalid_field`.',
    ),
});
export type AnalysisOptions = z.output<typeof AnalysisOptions>;

/**
 * `POST /api/process-video`'s options, in the order they are checked (the first bad one is the
 * `field` of the 400). Text is trimmed and empty text is absent (`api/form-options.ts`).
 */
export const ProcessFormOptions = z.object({
  voice_generator: z
    .enum(VOICE_GENERATORS)
    .default('0')
    .describe(
      "0: built-in speech synthesis (a neural English Piper voice, espeak-ng as its fallback; a description in another language is spoken by espeak-ng's voice of that language, detected from the text, and `processing_report.notes` says so; Chinese and Japanese with kanji, which that voice cannot say, fail the job with a message); 1: a remote TTS provider when configured; 2: use the supplied `audio`. 2 without `audio` is a 400 `invalid_field` (field audio). Without a description (0 or 1) the original speech is kept.",
    ),
  ...RenderToggles.shape,
  description: z
    .string()
    .max(MAX_DESCRIPTION_CHARS)
    .nullable()
    .default(null)
    .describe(
      `Caption or prompt; with voice_generator 0 or 1 the output speaks it. Trimmed; empty = absent; more than ${MAX_DESCRIPTION_CHARS} characters is 400 \`invalid_field\`. Not used with voice_generator 2.`,
    ),
  /** Checked only with voice_generator 1 (the specification's rules 6–7: otherwise accepted and ignored). */
  voice_id: z
    .string()
    .max(MAX_VOICE_ID_CHARS)
    .regex(VOICE_ID_PATTERN, VOICE_ID_RULE)
    .nullable()
    .default(null)
    .describe('Voice of the provider. Used only with voice_generator 1; ignored otherwise.'),
  credential_voice_generator: z
    .string()
    .max(MAX_CREDENTIAL_CHARS)
    .regex(CREDENTIAL_PATTERN, CREDENTIAL_RULE)
    .nullable()
    .default(null)
    .describe('Provider credential. Used only with voice_generator 1; ignored otherwise; never echoed back.'),
});

/** `POST /api/process-video`'s other way to name its video: a registered avatar. */
export const AvatarChoice = z.object({
  video_id: z
    .string()
    .max(100)
    .nullable()
    .default(null)
    .describe(
      "An `avt_` id from register-avatar, registered by the same API key. Unknown or another key's id: 404 `avatar_not_found`.",
    ),
});

/** Which speech the output carries: kept, spoken from the description, or the uploaded audio. */
export const SPEECH_SOURCES = ['original', 'synthesized', 'supplied'] as const;

/** The validated options of a processing job, as the pipeline receives them. */
export const ProcessOptions = ProcessFormOptions.extend({ speech: z.enum(SPEECH_SOURCES) });
export type ProcessOptions = z.output<typeof ProcessOptions>;
