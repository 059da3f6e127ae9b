/**
 * @module api/openapi/forms
 * The multipart forms of the upload routes as JSON Schema: their options come from the contract's
 * option schemas (`contract/options.ts`), written as the text a form sends, beside the file fields.
 */
import { z } from 'zod';
import { fromZod, type Schema } from './json-schema.js';

/** A file field: streamed to storage under the upload limit. */
export interface FileField {
  name: string;
  media: 'video' | 'audio';
  description: string;
  /** Appends the upload limit and what happens to empty, text and undecodable files. */
  withUploadRule?: boolean;
}

/** A text field the route reads itself (not a contract option). */
export interface TextField {
  name: string;
  schema: z.ZodType;
  description: string;
}

/** One entry of a form: a contract option schema (all its options), a file or a text field. */
export type FormPart = z.ZodObject | FileField | TextField;

export interface FormDoc {
  /** Name under `components.schemas`. */
  component: string;
  description: string;
  required?: string[];
  parts: FormPart[];
}

const ACCEPTED_MEDIA: Record<FileField['media'], string> = {
  video: 'video/*, application/octet-stream',
  audio: 'audio/*, application/octet-stream',
};

const isOptions = (part: FormPart): part is z.ZodObject => part instanceof z.ZodObject;
const isFile = (part: FormPart): part is FileField => !isOptions(part) && 'media' in part;

const uploadRule = (maxUploadBytes: number) =>
  `Streamed to storage; at most ${maxUploadBytes} bytes (MAX_UPLOAD_BYTES, default 2 GiB), else 413 \`payload_too_large\`. An empty file is 400 \`empty_file\`; plain text is refused at upload with 415 \`unsupported_media_type\`; other bytes that are not decodable media are accepted and the job then fails with an \`error_message\`.`;

const booleanText = (fallback: boolean, text: string): Schema => ({
  type: 'string',
  enum: ['true', 'false'],
  default: String(fallback),
  description: `${text} Sent as the text \`true\` or \`false\` (surrounding spaces ignored); anything else is a 400 \`invalid_field\`.`,
});

/** An option as a multipart text field: booleans are the text `true`/`false`; null (absent) is not something a form can send. */
function asFormText({ anyOf, default: fallback, description, ...rest }: Schema): Schema {
  const value = (anyOf as Schema[] | undefined)?.find((s) => s.type !== 'null') ?? rest;
  if (value.type === 'boolean') return booleanText(fallback === true, String(description));
  return {
    ...value,
    ...(fallback !== null && fallback !== undefined ? { default: fallback } : {}),
    description,
  };
}

function partProperties(part: FormPart, maxUploadBytes: number): Record<string, Schema> {
  if (isOptions(part)) {
    const props = fromZod(part).properties as Record<string, Schema>;
    return Object.fromEntries(Object.entries(props).map(([name, prop]) => [name, asFormText(prop)]));
  }
  if (isFile(part)) {
    const description = part.withUploadRule
      ? `${part.description} ${uploadRule(maxUploadBytes)}`
      : part.description;
    return { [part.name]: { type: 'string', contentMediaType: 'application/octet-stream', description } };
  }
  return { [part.name]: { ...fromZod(part.schema), description: part.description } };
}

/**
 * The form's JSON Schema: every option of its contract schemas, in order, beside its own fields.
 * @example formSchema(form, 2 ** 31).properties.visual_analytics // { type: 'string', enum: ['true', 'false'], default: 'false', ... }
 */
export function formSchema(form: FormDoc, maxUploadBytes: number): Schema {
  return {
    type: 'object',
    ...(form.required ? { required: form.required } : {}),
    additionalProperties: false,
    description: form.description,
    properties: Object.assign({}, ...form.parts.map((part) => partProperties(part, maxUploadBytes))),
  };
}

/** The `encoding` of the form's file fields: which media each accepts. */
export const formEncoding = (form: FormDoc): Record<string, { contentType: string }> =>
  Object.fromEntries(
    form.parts.filter(isFile).map((file) => [file.name, { contentType: ACCEPTED_MEDIA[file.media] }]),
  );
