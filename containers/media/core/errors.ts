/**
 * @module containers/media/core/errors
 * The container's one error type: a failure it answers with, carrying the code and the HTTP status
 * of its `{ error: { code, message } }` body (`MediaErrorBody` in the contract). 4xx: the caller's
 * request or media is at fault (the Worker fails the job at once); 5xx: an engine or the machine
 * failed (the Worker retries). Each engine's errors extend it with their own codes; the server's
 * one handler (server/errors.ts) answers every one of them the same way.
 */
import type { z } from 'zod';
import type { MediaErrorBody } from '../../../src/contract/render.js';

/** Statuses the container answers errors with. */
export type MediaErrorStatus = 400 | 401 | 404 | 408 | 413 | 415 | 422 | 429 | 500 | 502 | 503;

export class MediaError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: MediaErrorStatus = 500,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MediaError';
  }
}

/**
 * Pure: the body of an error answer.
 * @example errorBody('no_render', 'no render of this job ran here lately')
 */
export const errorBody = (code: string, message: string): z.infer<typeof MediaErrorBody> => ({
  error: { code, message },
});
