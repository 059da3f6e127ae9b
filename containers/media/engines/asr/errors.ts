/**
 * @module containers/media/engines/asr/errors
 * Named errors of the speech engines (`MediaError`s). `code` is what the answer's JSON error body
 * says; `status` says whether the caller (4xx) or the engine (5xx) is at fault.
 */
import { MediaError } from '../../core/errors.js';

/** Error codes the ASR routes can answer with. */
export type AsrErrorCode =
  | 'invalid_audio'
  | 'invalid_segments'
  | 'invalid_text'
  | 'invalid_language'
  | 'model_not_found'
  | 'model_invalid'
  | 'engine_failed'
  | 'aborted';

/** Base class: every ASR failure carries a code and an HTTP status. */
export class AsrError extends MediaError {
  declare readonly code: AsrErrorCode;
  constructor(
    code: AsrErrorCode,
    message: string,
    status: 400 | 408 | 413 | 415 | 422 | 500 | 503,
    options?: { cause?: unknown },
  ) {
    super(code, message, status, options);
    this.name = 'AsrError';
  }
}

/** Bad input from the caller (empty or odd-length PCM, malformed segments, empty text). */
export class AsrInputError extends AsrError {
  constructor(
    code: 'invalid_audio' | 'invalid_segments' | 'invalid_text' | 'invalid_language',
    message: string,
  ) {
    super(code, message, 400);
    this.name = 'AsrInputError';
  }
}

/** The configured model file is missing or is not a model this engine can load. */
export class AsrModelError extends AsrError {
  constructor(code: 'model_not_found' | 'model_invalid', message: string, options?: { cause?: unknown }) {
    super(code, message, 500, options);
    this.name = 'AsrModelError';
  }
}

/** The engine itself failed (process crashed, native error); the message says how. */
export class AsrEngineError extends AsrError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('engine_failed', message, 500, options);
    this.name = 'AsrEngineError';
  }
}

/**
 * Whisper's worker raised on this request (a Python exception answered as an error line, not a
 * dead process): the same audio fails the same way again, so it is answered 422 and the job
 * fails at once with the reason, instead of being retried for minutes (`whisperFailure`).
 */
export class AsrDecodeError extends AsrError {
  constructor(message: string) {
    super('engine_failed', message, 422);
    this.name = 'AsrDecodeError';
  }
}

/** Thrown when the caller's AbortSignal fired (408: the request ended before its answer). */
export class AsrAbortedError extends AsrError {
  constructor(message = 'speech recognition was aborted') {
    super('aborted', message, 408);
    this.name = 'AsrAbortedError';
  }
}
