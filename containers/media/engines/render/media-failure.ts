/**
 * @module containers/media/engines/render/media-failure
 * A failed media process as a RenderError: bad input, a limit or DELETE are final (422, never
 * retried: the same file fails the same way); machine trouble (killed by the system, disk full)
 * is 500 and retried. The message is plain (no ffmpeg internals).
 */
import type { RenderErrorCode } from '../../../../src/contract/render.js';
import { isTransientMediaFailure, plainMediaError } from '../../core/media-limits.js';
import { badInput, engineFailure, RenderError } from './errors.js';

export function mediaFailure(code: RenderErrorCode, what: string, err: unknown): RenderError {
  if (err instanceof RenderError) return err;
  const message = plainMediaError(err, what);
  return isTransientMediaFailure(err) ? engineFailure(code, message, err) : badInput(code, message, err);
}
