/**
 * @module api/openapi/schemas
 * `components.schemas` of the OpenAPI document. The analysis result, the status response, the
 * response bodies of jobs, avatars and uploads, and the options of the forms come from the zod
 * contract (`z.toJSONSchema`); the result is annotated with the field definitions. The error body
 * and the admin's key records are written here.
 */
import { z } from 'zod';
import { ErrorBody } from '../../contract/errors.js';
import { KeyCreated, KeyLimits, KeyRecord } from '../../contract/keys.js';
import { ProcessingReport, StatusResponse } from '../../contract/jobs.js';
import { AvatarRegistered, JobCreated, UploadCompleted, UploadCreated, UploadPart, UploadState } from '../../contract/responses.js';
import { AnalysisOptions, AvatarChoice, ProcessFormOptions } from '../../contract/options.js';
import { AnalysisResult, EventFrameSummary } from '../../contract/result.js';
import { ERROR_CODE_DOCS } from './errors.js';
import { EVENT_SUMMARY_DESCRIPTIONS, RESULT_DESCRIPTIONS } from './result-descriptions.js';

type Schema = Record<string, unknown>;

/** zod → JSON Schema 2020-12 (the dialect of OpenAPI 3.1), without the noise zod adds. */
function fromZod(schema: z.ZodType): Schema {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any' }) as Schema;
  delete json.$schema;
  return clean(json) as Schema;
}

/** Drops zod's ±MAX_SAFE_INTEGER bounds on integers: they say nothing to a reader. */
function clean(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(clean);
  if (!node || typeof node !== 'object') return node;
  const out: Schema = {};
  for (const [k, v] of Object.entries(node)) {
    if ((k === 'minimum' || k === 'maximum') && Math.abs(v as number) === Number.MAX_SAFE_INTEGER) continue;
    out[k] = clean(v);
  }
  return out;
}

/** Attaches `descriptions[path]` to each (nested) property; arrays add `[]` to the path. */
function describe(node: Schema, descriptions: Record<string, string>, path = ''): Schema {
  if (descriptions[path] && !node.description) node.description = descriptions[path];
  const props = node.properties as Record<string, Schema> | undefined;
  for (const [name, child] of Object.entries(props ?? {})) describe(child, descriptions, path ? `${path}.${name}` : name);
  if (node.items && typeof node.items === 'object') describe(node.items as Schema, descriptions, `${path}[]`);
  return node;
}

function resultSchema(): Schema {
  const schema = describe(fromZod(AnalysisResult), RESULT_DESCRIPTIONS);
  const props = schema.properties as Record<string, Schema>;
  // The word-sync summaries share one component, so they are described once.
  const sync = props.gesture_summary_word_sync?.properties as Record<string, Schema> | undefined;
  const labels: Record<string, string> = {
    filler_summary: 'Frames inside filler words.',
    pause_summary: 'Frames inside pauses.',
    sentiment_positive_summary: 'Frames at words with compound > 0.',
    sentiment_negative_summary: 'Frames at words with compound < 0.',
  };
  for (const name of Object.keys(sync ?? {})) {
    sync![name] = { description: `${labels[name] ?? ''} \`{}\` when there is none.`, anyOf: [{ $ref: '#/components/schemas/EventFrameSummary' }, { type: 'object', additionalProperties: false, maxProperties: 0 }] };
  }
  const pos = props.pos?.properties as Record<string, Schema> | undefined;
  for (const tag of Object.keys(pos ?? {})) pos![tag] = { type: 'array', items: { $ref: '#/components/schemas/PosEntry' }, description: `Words tagged ${tag}.` };
  return schema;
}

/** The status response, with the result and the report as references to their components. */
function statusSchema(): Schema {
  const schema = fromZod(StatusResponse);
  const props = schema.properties as Record<string, Schema>;
  props.result = { oneOf: [{ $ref: '#/components/schemas/AnalysisResult' }, { type: 'null' }], description: props.result.description };
  props.processing_report = { $ref: '#/components/schemas/ProcessingReport', description: props.processing_report.description };
  return schema;
}

/** The error body, its `code` described by the error table. */
function errorBodySchema(): Schema {
  const schema = fromZod(ErrorBody);
  const error = (schema.properties as Record<string, Schema>).error;
  const code = (error.properties as Record<string, Schema>).code;
  code.description = ERROR_CODE_DOCS.map((e) => `\`${e.code}\` (${e.status}): ${e.when}`).join('\n');
  return schema;
}

/** A key record with its limits as a reference to their component. */
function keyRecordSchema(record: z.ZodObject): Schema {
  const schema = fromZod(record);
  (schema.properties as Record<string, Schema>).limits = { $ref: '#/components/schemas/KeyLimits' };
  return schema;
}

const booleanText = (fallback: boolean, text: string): Schema => ({
  type: 'string',
  enum: ['true', 'false'],
  default: String(fallback),
  description: `${text} Sent as the text \`true\` or \`false\` (surrounding spaces ignored); anything else is a 400 \`invalid_field\`.`,
});

/**
 * A contract option schema (`contract/options.ts`) as multipart text fields, so the document
 * states each option's type, default and rules from the one definition the API parses with:
 * booleans are the text `true`/`false`; null (absent) is not something a form can send.
 */
function formOptions(options: z.ZodObject): Record<string, Schema> {
  const props = fromZod(options).properties as Record<string, Schema>;
  return Object.fromEntries(Object.entries(props).map(([name, prop]) => [name, asFormText(prop)]));
}

function asFormText({ anyOf, default: fallback, description, ...rest }: Schema): Schema {
  const value = (anyOf as Schema[] | undefined)?.find((s) => s.type !== 'null') ?? rest;
  if (value.type === 'boolean') return booleanText(fallback === true, String(description));
  return { ...value, ...(fallback !== null && fallback !== undefined ? { default: fallback } : {}), description };
}

const binary = (text: string): Schema => ({ type: 'string', contentMediaType: 'application/octet-stream', description: text });

/**
 * The component schemas, keyed by name.
 * @example
 * componentSchemas().AnalysisResult.properties.summary
 */
export function componentSchemas(maxUploadBytes: number): Record<string, Schema> {
  const uploadRule = `Streamed to storage; at most ${maxUploadBytes} bytes (MAX_UPLOAD_BYTES, default 2 GiB), else 413 \`payload_too_large\`. An empty file is 400 \`empty_file\`; plain text is refused at upload with 415 \`unsupported_media_type\`; other bytes that are not decodable media are accepted and the job then fails with an \`error_message\`.`;
  return {
    AnalysisResult: resultSchema(),
    EventFrameSummary: describe(fromZod(EventFrameSummary), EVENT_SUMMARY_DESCRIPTIONS),
    PosEntry: {
      type: 'object',
      required: ['word', 'timestamps'],
      properties: {
        word: { type: 'string', description: 'Lower-case word form.' },
        timestamps: { type: 'array', description: 'Every occurrence.', items: { type: 'object', required: ['start', 'end'], properties: { start: { type: 'number' }, end: { type: 'number' } } } },
      },
    },
    StatusResponse: statusSchema(),
    ProcessingReport: describe(fromZod(ProcessingReport), {
      options_applied: 'The requested options that took effect.',
      lip_sync: 'Null when lip_sync_correction was not requested. `offset`: the audio was shifted by `audio_shift_ms` (positive: it was late); `embedded`: the mouth was driven from the new speech by the built-in engine; `remote`: by the sync.so-compatible provider; `none`: requested but not applied (see notes).',
      captions: 'How the caption track of `description` was timed: `alignment` (forced alignment) or `even-split` (fallback). Null without captions.',
      voice: 'Present when the speech was synthesized from `description`: the engine and voice that spoke it, e.g. `{engine: "piper", voice_id: "en_US-joe-medium"}` (voice_generator 0\'s neural voice), `espeak-ng` (its fallback, explained in `notes`) or `elevenlabs`.',
      output: 'The output video: size, frame rate, duration, and `fit` (`source`, or `loop`/`trim` to the new speech).',
      notes: 'Plain-language notes, e.g. why a requested option was not applied.',
    }),
    JobCreated: fromZod(JobCreated),
    AvatarRegistered: fromZod(AvatarRegistered),
    AnalyzeVideoForm: {
      type: 'object',
      required: ['file'],
      additionalProperties: false,
      description: 'multipart/form-data. Unknown fields are a 400 `invalid_field` naming the field; a field sent twice is a 400 `invalid_field`. An `api_key` form field is ignored (send the key in the header or query).',
      properties: {
        file: binary(`Video to analyze, any common container or codec. ${uploadRule}`),
        file_id: { type: 'string', pattern: '^upl_[A-Za-z0-9_-]{22}$', description: 'Extension: a completed resumable upload (`POST /api/uploads` … `/complete`) of this key, instead of `file`. Sending both is 400 `conflicting_fields`; an unknown id is 404 `not_found`; an unfinished one is 409 `upload_conflict`. Used once: the job takes the file over.' },
        ...formOptions(AnalysisOptions),
      },
    },
    ProcessVideoForm: {
      type: 'object',
      additionalProperties: false,
      description: 'multipart/form-data. Either `file` or `video_id` (a registered avatar) is required, else 400 `missing_file`. Unknown fields and repeated fields are a 400 `invalid_field` naming the field.',
      properties: {
        file: binary(`Video to process. Ignored (and not kept) when \`video_id\` is also sent. ${uploadRule}`),
        file_id: { type: 'string', pattern: '^upl_[A-Za-z0-9_-]{22}$', description: 'Extension: a completed resumable upload (`POST /api/uploads` … `/complete`) of this key, instead of `file`. Sending both is 400 `conflicting_fields`; an unknown id is 404 `not_found`; an unfinished one is 409 `upload_conflict`. Used once: the job takes the file over.' },
        ...formOptions(AvatarChoice),
        ...formOptions(ProcessFormOptions),
        audio: binary('Speech for the output video. Allowed only with voice_generator 2 (else 400 `invalid_field`, field audio). Same upload rules as `file`.'),
      },
    },
    RegisterAvatarForm: {
      type: 'object',
      required: ['file'],
      additionalProperties: false,
      description: 'multipart/form-data with `file` (or `file_id`). Other fields are a 400 `invalid_field`.',
      properties: { file: binary(`Video to store for reuse. ${uploadRule}`), ...{ file_id: { type: 'string', pattern: '^upl_[A-Za-z0-9_-]{22}$', description: 'Extension: a completed resumable upload of this key, instead of `file`.' } } },
    },
    KeyLimits: fromZod(KeyLimits),
    UploadCreated: fromZod(UploadCreated),
    UploadState: fromZod(UploadState),
    UploadPart: fromZod(UploadPart),
    UploadCompleted: fromZod(UploadCompleted),
    ErrorBody: errorBodySchema(),
    KeyRecord: keyRecordSchema(KeyRecord),
    KeyCreated: keyRecordSchema(KeyCreated),
  };
}
