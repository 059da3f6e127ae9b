/**
 * @module
 * Errors of the edge decode. Both are data the pipeline acts on: a budget error means
 * "send this job to the media container", a decode error means the input is unreadable.
 */

/** The input is over the edge budget (bytes or seconds); decode it in the container instead. */
export class EdgeBudgetError extends Error {
  override readonly name = 'EdgeBudgetError';
  constructor(
    message: string,
    /** Which budget was exceeded. */
    readonly limit: 'bytes' | 'duration',
  ) {
    super(message);
  }
}

/**
 * ffmpeg could not read the input (corrupt or unsupported). Permanent: retrying the same
 * bytes gives the same answer. `log` holds ffmpeg's last stderr lines.
 */
export class MediaDecodeError extends Error {
  override readonly name = 'MediaDecodeError';
  constructor(
    message: string,
    readonly log: readonly string[],
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
