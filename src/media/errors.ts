/**
 * @module media/errors
 * Two kinds of failure: the input itself is bad (never retried, the job fails at once with the
 * message) or something passing went wrong (retried with backoff).
 */

/** Corrupt or unusable input, missing configuration: retrying cannot help. */
export class UnrecoverableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UnrecoverableError';
  }
}

/** A failure worth retrying (container restarting, network, 5xx). */
export class TransientError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TransientError';
  }
}
