/**
 * @module containers/media/engines/render/options
 * The `options` part of `POST /render`, read with the contract's `RenderRequest` schema: the same
 * options, defaults and rules as the API's processing form. Bad fields throw
 * `RenderError('options_invalid')` naming the field path.
 */
import { RenderRequest, type RenderOptions } from '../../../../src/contract/render.js';
import { badInput } from './errors.js';

export type { RenderOptions };

/** Parses the JSON text of the `options` part; missing text means all defaults. */
export function parseRenderOptions(text: string | undefined): RenderOptions {
  let raw: unknown = {};
  if (text !== undefined && text.trim() !== '') {
    try {
      raw = JSON.parse(text);
    } catch (err) {
      throw badInput('options_invalid', `options: not valid JSON (${(err as Error).message})`);
    }
  }
  const parsed = RenderRequest.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badInput(
      'options_invalid',
      issue.path.length ? `options.${issue.path.join('.')}: ${issue.message}` : `options: ${issue.message}`,
    );
  }
  // Blank captions are no captions.
  const { captions, ...toggles } = parsed.data;
  return captions?.trim() ? { ...toggles, captions } : toggles;
}
