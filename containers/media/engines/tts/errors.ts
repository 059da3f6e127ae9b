/**
 * @module containers/media/engines/tts/errors
 * TTS failures with the spec's error `code` and the HTTP status the route answers with.
 */
export class TtsError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: 400 | 401 | 404 | 422 | 429 | 500 | 502 | 503 = 500,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'TtsError';
  }
}
