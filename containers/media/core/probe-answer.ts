/**
 * @module containers/media/core/probe-answer
 * What `POST /probe` answers for a file, as data: 200 with the probe, or 422 with why the file is
 * refused (deterministic: the same file is refused the same way on every attempt). The render
 * gives the same answer for its own source (`GET /render/probe`).
 */
import type { ProbeResult } from '../../../src/contract/media.js';
import { FfmpegError, WorkLimitError } from './ffmpeg.js';
import { mediaProblem, type MediaLimits } from './media-limits.js';

export type ProbeAnswer =
  { status: 200; body: ProbeResult } | { status: 422; body: { error: { code: string; message: string } } };

/** The answer for a probe in flight; a failure other than the file's own is rethrown. */
export async function probeAnswer(probe: Promise<ProbeResult>, limits: MediaLimits): Promise<ProbeAnswer> {
  try {
    const result = await probe;
    const problem = mediaProblem(result, limits);
    return problem ? { status: 422, body: { error: problem } } : { status: 200, body: result };
  } catch (err) {
    if (err instanceof FfmpegError && !(err instanceof WorkLimitError)) {
      return { status: 422, body: { error: { code: 'unreadable_media', message: unreadableMessage(err) } } };
    }
    throw err;
  }
}

/**
 * Pure: why a file is unreadable, in words. An MP4 or MOV writes its index (the moov atom) last
 * unless it was made for streaming, so a recording or copy stopped early has none and nothing in
 * it can be found: that common case is named.
 */
export function unreadableMessage(err: FfmpegError): string {
  if (/moov atom not found/i.test(err.stderrTail))
    return (
      'the file is an MP4 or MOV without its index (moov atom), as a recording, upload or copy ' +
      'that stopped before it finished leaves it: it cannot be read'
    );
  return 'the file is not a readable audio or video file';
}
