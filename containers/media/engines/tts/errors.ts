/**
 * @module containers/media/engines/tts/errors
 * TTS failures (`MediaError`s) with the spec's error `code` and the HTTP status the route answers with.
 */
import { MediaError } from '../../core/errors.js';

export class TtsError extends MediaError {
  constructor(
    code: string,
    message: string,
    status: 400 | 401 | 404 | 422 | 429 | 500 | 502 | 503 = 500,
    options?: { cause?: unknown },
  ) {
    super(code, message, status, options);
    this.name = 'TtsError';
  }
}
