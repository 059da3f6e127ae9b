/**
 * @module api/form-values
 * Parsing of text form values per the spec: booleans are exactly `true` or `false`.
 */
import { invalidField } from '../contract/errors.js';

export function parseBoolean(fields: Record<string, string>, name: string, fallback: boolean): boolean {
  const raw = fields[name];
  if (raw === undefined) return fallback;
  const value = raw.trim();
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw invalidField(name, `"${name}" must be the text true or false, got ${JSON.stringify(raw.slice(0, 40))}`);
}

export function parseChoice<T extends string>(
  fields: Record<string, string>,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const raw = fields[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = raw.trim();
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw invalidField(name, `"${name}" must be one of ${allowed.join(', ')}, got ${JSON.stringify(raw.slice(0, 40))}`);
}

/** A text field, trimmed; empty means absent. */
export function optionalText(fields: Record<string, string>, name: string, maxChars: number): string | null {
  const raw = fields[name];
  if (raw === undefined) return null;
  const value = raw.trim();
  if (value === '') return null;
  if (value.length > maxChars) throw invalidField(name, `"${name}" is longer than ${maxChars} characters`);
  return value;
}
