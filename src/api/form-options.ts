/**
 * @module api/form-options
 * A form's text fields read into one of the contract's option schemas (`contract/options.ts`).
 * The schema gives the types, the defaults and the rules; this module only says how a form
 * writes values (booleans are exactly the text `true` or `false`, other text is trimmed and empty
 * text is absent) and turns the schema's first complaint into the spec's 400 `invalid_field`.
 */
import { z } from 'zod';
import { invalidField } from '../contract/errors.js';

/** The value type under a schema's default, null and optional wrappers. */
function valueType(schema: z.ZodType): z.ZodType {
  let t = schema;
  while (t instanceof z.ZodDefault || t instanceof z.ZodNullable || t instanceof z.ZodOptional)
    t = t.unwrap() as z.ZodType;
  return t;
}

/** What the client sent, quoted and cut for an error message. */
const quoted = (raw: string | undefined) => JSON.stringify((raw ?? '').slice(0, 40));

/** Longer lists of allowed values (the 99 language codes) are summarised in a 400's message. */
const MAX_LISTED_VALUES = 12;

/** The spec's wording for each kind of complaint the option schemas can make. */
function complaint(name: string, issue: z.core.$ZodIssue, raw: string | undefined): string {
  if (issue.code === 'invalid_type' && issue.expected === 'boolean')
    return `"${name}" must be the text true or false, got ${quoted(raw)}`;
  if (issue.code === 'invalid_value' && issue.values.length > MAX_LISTED_VALUES)
    return `"${name}" must be one of ${issue.values.length} codes such as ${issue.values.slice(0, 5).join(', ')} (see the API docs), got ${quoted(raw)}`;
  if (issue.code === 'invalid_value')
    return `"${name}" must be one of ${issue.values.join(', ')}, got ${quoted(raw)}`;
  if (issue.code === 'too_big' && issue.origin === 'string')
    return `"${name}" is longer than ${issue.maximum} characters`;
  return `"${name}": ${issue.message}`;
}

/**
 * Reads `schema`'s options from the form's text fields: absent ones take the schema's default.
 * The first invalid field, in the schema's order, is the `field` of the 400.
 * @example parseFormOptions(AnalysisOptions, { visual_analytics: 'true' }) // → { visual_analytics: true }
 */
export function parseFormOptions<S extends z.ZodObject>(
  schema: S,
  fields: Record<string, string>,
): z.output<S> {
  const names = Object.keys(schema.shape);
  const values: Record<string, unknown> = {};
  for (const name of names) {
    const raw = fields[name];
    if (raw === undefined) continue;
    const text = raw.trim();
    if (valueType(schema.shape[name]) instanceof z.ZodBoolean)
      values[name] = text === 'true' ? true : text === 'false' ? false : raw;
    else if (text !== '') values[name] = text;
  }
  const parsed = schema.safeParse(values);
  if (parsed.success) return parsed.data;
  const at = (issue: z.core.$ZodIssue) => names.indexOf(String(issue.path[0]));
  const first = [...parsed.error.issues].sort((a, b) => at(a) - at(b))[0];
  const name = String(first.path[0]);
  throw invalidField(name, complaint(name, first, fields[name]));
}

/** The text fields a form accepts: the schema's options and any others the route reads itself. */
export const formFields = (schema: z.ZodObject, ...others: string[]): string[] => [
  ...Object.keys(schema.shape),
  ...others,
];
