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

/**
 * The media service did not answer at all (connection refused or cut: a container restarting after
 * a crash). Retried like any transient failure, but never waits longer than
 * `UNREACHABLE_MAX_DELAY_SEC` (`pipeline/retry.ts`): the container is back within seconds.
 */
export class MediaUnreachableError extends TransientError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MediaUnreachableError';
  }
}

/** The job was deleted (or taken over) while this request ran: its work was stopped on purpose. */
export class JobAbortedError extends Error {
  constructor(what: string, options?: { cause?: unknown }) {
    super(`${what} was stopped: the job was deleted or is no longer held by this worker`, options);
    this.name = 'JobAbortedError';
  }
}
