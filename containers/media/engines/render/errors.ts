/**
 * @module containers/media/engines/render/errors
 * Domain errors of the render engine. Each carries one of the contract's render error codes and
 * its HTTP status: 4xx when the client's media or options are at fault, 5xx when an engine failed.
 */
import type { RenderErrorCode } from '../../../../src/contract/render.js';
import { MediaError } from '../../core/errors.js';

/** A `MediaError` with a stable code listed in the contract. */
export class RenderError extends MediaError {
  declare readonly code: RenderErrorCode;
  constructor(
    code: RenderErrorCode,
    message: string,
    status: 400 | 413 | 415 | 422 | 500 | 502 | 503 = 500,
    options?: { cause?: unknown },
  ) {
    super(code, message, status, options);
    this.name = 'RenderError';
  }
}

/** The client's input (media or options) cannot be used; never retried. */
export const badInput = (code: RenderErrorCode, message: string, cause?: unknown) =>
  new RenderError(code, message, code === 'options_invalid' ? 400 : 422, { cause });

/** An engine (ffmpeg, a model, a remote provider) failed on valid input. */
export const engineFailure = (code: RenderErrorCode, message: string, cause?: unknown) =>
  new RenderError(code, message, 500, { cause });
