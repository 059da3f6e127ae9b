/**
 * @module api/openapi/schemas
 * `components.schemas` of the OpenAPI document, the forms aside (`forms.ts`, from the route
 * table). The analysis result, the status response, the error body, the key records and the
 * response bodies of jobs, avatars and uploads come from the zod contract; the result is
 * annotated with the field definitions.
 */
import { z } from 'zod';
import { ErrorBody } from '../../contract/errors.js';
import { KeyCreated, KeyLimits, KeyRecord } from '../../contract/keys.js';
import { ProcessingReport, StatusResponse } from '../../contract/jobs.js';
import {
  AvatarRegistered,
  JobCreated,
  UploadCompleted,
  UploadCreated,
  UploadPart,
  UploadState,
} from '../../contract/responses.js';
import { AnalysisResult, EventFrameSummary } from '../../contract/result.js';
import { WebhookPayload } from '../../contract/webhooks.js';
import { ERROR_CODE_DOCS } from './errors.js';
import { fromZod, type ComponentNames, type Schema } from './json-schema.js';
import { EVENT_SUMMARY_DESCRIPTIONS, RESULT_DESCRIPTIONS } from './result-descriptions.js';

/** Attaches `descriptions[path]` to each (nested) property; arrays add `[]` to the path. */
function describe(node: Schema, descriptions: Record<string, string>, path = ''): Schema {
  if (descriptions[path] && !node.description) node.description = descriptions[path];
  const props = node.properties as Record<string, Schema> | undefined;
  for (const [name, child] of Object.entries(props ?? {}))
    describe(child, descriptions, path ? `${path}.${name}` : name);
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
    sync![name] = {
      description: `${labels[name] ?? ''} \`{}\` when there is none.`,
      anyOf: [
        { $ref: '#/components/schemas/EventFrameSummary' },
        { type: 'object', additionalProperties: false, maxProperties: 0 },
      ],
    };
  }
  const pos = props.pos?.properties as Record<string, Schema> | undefined;
  for (const tag of Object.keys(pos ?? {}))
    pos![tag] = {
      type: 'array',
      items: { $ref: '#/components/schemas/PosEntry' },
      description: `Words tagged ${tag}.`,
    };
  return schema;
}

/** The status response, with the result and the report as references to their components. */
function statusSchema(): Schema {
  const schema = fromZod(StatusResponse);
  const props = schema.properties as Record<string, Schema>;
  props.result = {
    oneOf: [{ $ref: '#/components/schemas/AnalysisResult' }, { type: 'null' }],
    description: props.result.description,
  };
  props.processing_report = {
    $ref: '#/components/schemas/ProcessingReport',
    description: props.processing_report.description,
  };
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

/** The contract schemas that are components, by name: a route's reply or body naming one refers to it. */
export const CONTRACT_COMPONENTS: ComponentNames = new Map<z.core.$ZodType, string>([
  [AnalysisResult, 'AnalysisResult'],
  [EventFrameSummary, 'EventFrameSummary'],
  [StatusResponse, 'StatusResponse'],
  [ProcessingReport, 'ProcessingReport'],
  [JobCreated, 'JobCreated'],
  [AvatarRegistered, 'AvatarRegistered'],
  [KeyLimits, 'KeyLimits'],
  [UploadCreated, 'UploadCreated'],
  [UploadState, 'UploadState'],
  [UploadPart, 'UploadPart'],
  [UploadCompleted, 'UploadCompleted'],
  [ErrorBody, 'ErrorBody'],
  [KeyRecord, 'KeyRecord'],
  [KeyCreated, 'KeyCreated'],
]);

/**
 * The component schemas other than the forms (those come from the route table), keyed by name.
 * @example
 * componentSchemas().AnalysisResult.properties.summary
 */
export function componentSchemas(): Record<string, Schema> {
  return {
    AnalysisResult: resultSchema(),
    EventFrameSummary: describe(fromZod(EventFrameSummary), EVENT_SUMMARY_DESCRIPTIONS),
    PosEntry: {
      type: 'object',
      required: ['word', 'timestamps'],
      properties: {
        word: { type: 'string', description: 'Lower-case word form.' },
        timestamps: {
          type: 'array',
          description: 'Every occurrence.',
          items: {
            type: 'object',
            required: ['start', 'end'],
            properties: { start: { type: 'number' }, end: { type: 'number' } },
          },
        },
      },
    },
    StatusResponse: statusSchema(),
    ProcessingReport: describe(fromZod(ProcessingReport), {
      options_applied: 'The requested options that took effect.',
      lip_sync:
        'Null when lip_sync_correction was not requested. `offset`: the audio was shifted by `audio_shift_ms` (positive: it was late); `embedded`: the mouth was driven from the new speech by the built-in engine; `remote`: by the sync.so-compatible provider; `none`: requested but not applied (see notes).',
      captions:
        "How the caption track of `description` was timed: `alignment` (forced alignment), `transcription` (the description's words at the times the service's recogniser heard them, where the aligner, which hears English, could not align them) or `even-split` (fallback). Null without captions.",
      voice:
        'Present when the speech was synthesized from `description`: the engine and voice that spoke it, e.g. `{engine: "piper", voice_id: "en_US-joe-medium"}` (voice_generator 0\'s neural voice), `espeak-ng` (its fallback, or the voice of a description in another language, e.g. `es+m3`; explained in `notes`) or `elevenlabs`.',
      output:
        'The output video: size, frame rate, duration, and `fit` (`source`, or `loop`/`trim` to the new speech).',
      notes: 'Plain-language notes, e.g. why a requested option was not applied.',
    }),
    JobCreated: fromZod(JobCreated),
    AvatarRegistered: fromZod(AvatarRegistered),
    KeyLimits: fromZod(KeyLimits),
    UploadCreated: fromZod(UploadCreated),
    UploadState: fromZod(UploadState),
    UploadPart: fromZod(UploadPart),
    UploadCompleted: fromZod(UploadCompleted),
    ErrorBody: errorBodySchema(),
    // Their `limits` refer to the KeyLimits component.
    KeyRecord: fromZod(KeyRecord, CONTRACT_COMPONENTS),
    KeyCreated: fromZod(KeyCreated, CONTRACT_COMPONENTS),
    WebhookPayload: fromZod(WebhookPayload),
  };
}
