/**
 * @module containers/media/server/errors
 * The service's one error handler: every failure a route throws is answered `{ error: { code,
 * message } }`. A `MediaError` (core/errors.ts: each engine's errors extend it) with its own code
 * and status; anything else is 500 with the failing engine's code (the Worker retries a 5xx).
 */
import { Hono, type ErrorHandler } from 'hono';
import { errorBody, MediaError, type MediaErrorStatus } from '../core/errors.js';

/** The code and message of an unexpected failure, by the path of the route that failed. */
const UNEXPECTED: readonly { path: RegExp; code: string; message: (err: Error) => string }[] = [
  { path: /^\/(asr|align)$/, code: 'engine_failed', message: (e) => `speech engine failed: ${e.message}` },
  { path: /^\/tts$/, code: 'tts_failed', message: (e) => e.message || 'speech synthesis failed' },
  { path: /^\/render(\/|$)/, code: 'render_failed', message: (e) => e.message || 'render failed' },
  { path: /^\/vision$/, code: 'vision_failed', message: (e) => e.message },
];

/**
 * Pure: the answer to `err` thrown by the route at `path`.
 * @example errorAnswer(new TtsError('voice_not_found', 'no such voice', 404), '/tts') // → { status: 404, body: { error: { code: 'voice_not_found', … } } }
 * @example errorAnswer(new Error('boom'), '/render') // → { status: 500, body: { error: { code: 'render_failed', message: 'boom' } } }
 */
export function errorAnswer(
  err: Error,
  path: string,
): { status: MediaErrorStatus; body: ReturnType<typeof errorBody> } {
  if (err instanceof MediaError) return { status: err.status, body: errorBody(err.code, err.message) };
  const engine = UNEXPECTED.find((e) => e.path.test(path));
  if (engine) return { status: 500, body: errorBody(engine.code, engine.message(err)) };
  return { status: 500, body: errorBody('internal_error', err.message || 'internal error') };
}

/** `app.onError`: answers with `errorAnswer`, and logs what went wrong on our side (5xx). */
export const answerError: ErrorHandler = function answerError(err, c) {
  const { status, body } = errorAnswer(err, c.req.path);
  if (status >= 500)
    console.error(JSON.stringify({ level: 'error', path: c.req.path, error: String(err?.stack ?? err) }));
  return c.json(body, status);
};

/**
 * An engine's routes as the server mounts them, answering their failures with the one handler
 * (for a test or tool that serves one engine's routes alone).
 * @example await answeringErrors(createTtsRoutes()).request('/tts', { method: 'POST', body })
 */
export const answeringErrors = (routes: Hono): Hono => new Hono().onError(answerError).route('/', routes);
