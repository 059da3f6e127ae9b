/**
 * @module containers/media/engines/vision/routes
 * `POST /vision?fps=N[&detail=full]`: the request body is the media file (or the request names the
 * job's stored source, `x-stored-source: 1`); the response is NDJSON,
 * one `CompactFrame` per line as frames finish (`detail=full`: the full `FrameObservation`, ~10×
 * larger, for debugging), then `{"done":true,"frames":N,"ms_per_frame":{…}}`. Compact frames
 * carry every number the analytics read, so the Worker never holds face meshes or hand landmarks.
 * A body is spooled to a temp file first (core/input.ts): MP4s with the `moov` box at the end need a seekable
 * input, and probing before answering lets unreadable media fail with a 4xx instead of a
 * broken 200 stream.
 */
import { Hono } from 'hono';
import { MEDIA_HEADERS, MEDIA_ROUTES } from '../../../../src/contract/media-protocol.js';
import { mediaConfig } from '../../core/config.js';
import { errorBody, MediaError } from '../../core/errors.js';
import { FfmpegError, probeFile } from '../../core/ffmpeg.js';
import { requestInput } from '../../core/input.js';
import { plainMediaError } from '../../core/media-limits.js';
import { compactFrame } from '../../../../src/analytics/visual/compact.js';
import { analyzeVideo, type VisionRunStats } from './analyze.js';

/** Sampling rates accepted from the query string. */
const MAX_FPS = 30;

export type VisionErrorCode = 'invalid_request' | 'unsupported_media' | 'no_video_stream' | 'vision_failed';

/** A failure with the status and code the route answers with (the server's one handler answers it). */
export class VisionRouteError extends MediaError {
  declare readonly status: 400 | 415 | 422 | 500;
  declare readonly code: VisionErrorCode;

  constructor(
    status: 400 | 415 | 422 | 500,
    code: VisionErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, status, options);
    this.name = 'VisionRouteError';
  }
}

/** Parses `?fps=`: absent → `VISION_FPS`; otherwise 0 < fps ≤ 30. */
export function parseFps(raw: string | undefined): number {
  if (raw === undefined || raw === '') return mediaConfig().vision.fps;
  const fps = Number(raw);
  if (!Number.isFinite(fps) || fps <= 0 || fps > MAX_FPS) {
    throw new VisionRouteError(
      400,
      'invalid_request',
      `fps must be a number in (0, ${MAX_FPS}], got "${raw}"`,
    );
  }
  return fps;
}

/** Parses `?detail=`: absent or `compact` → compact frames; `full` → full observations. */
export function parseDetail(raw: string | undefined): 'compact' | 'full' {
  if (raw === undefined || raw === '' || raw === 'compact') return 'compact';
  if (raw === 'full') return 'full';
  throw new VisionRouteError(400, 'invalid_request', `detail must be "compact" or "full", got "${raw}"`);
}

export const visionRoutes = new Hono();

visionRoutes.post(MEDIA_ROUTES.vision, async function postVision(c) {
  const fps = parseFps(c.req.query('fps'));
  const detail = parseDetail(c.req.query('detail'));
  const stored = c.req.header(MEDIA_HEADERS.storedSource) === '1';
  if (!stored && !c.req.raw.body)
    throw new VisionRouteError(400, 'invalid_request', 'the request body must be the media file');

  const input = await requestInput(c.req.raw);
  const file = input.path;
  let sourceFps = 0;
  try {
    let probe;
    try {
      probe = await probeFile(file, c.req.raw.signal);
    } catch (err) {
      if (err instanceof FfmpegError) {
        throw new VisionRouteError(
          415,
          'unsupported_media',
          `the body is not readable media: ${plainMediaError(err, 'the video')}`,
          { cause: err },
        );
      }
      throw err;
    }
    if (!probe.video) throw new VisionRouteError(422, 'no_video_stream', 'the media has no video stream');
    sourceFps = probe.video.fps;
  } catch (err) {
    await input[Symbol.asyncDispose]();
    throw err;
  }

  const abort = new AbortController();
  const run = analyzeVideo(file, { fps, sourceFps, signal: abort.signal });
  const encoder = new TextEncoder();
  const line = (value: unknown) => encoder.encode(`${JSON.stringify(value)}\n`);
  const finish = async () => {
    abort.abort();
    await run.return(undefined as never).catch(() => {});
    await input[Symbol.asyncDispose]();
  };

  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await run.next();
        if (next.done) {
          const stats: VisionRunStats = next.value;
          controller.enqueue(line({ done: true, fps, ...stats }));
          controller.close();
          await finish();
        } else {
          controller.enqueue(line(detail === 'full' ? next.value : compactFrame(next.value)));
        }
      } catch (err) {
        // Headers are gone already: the error becomes the last line of the stream (plain: no ffmpeg internals).
        const message =
          err instanceof FfmpegError ? plainMediaError(err, 'the video') : (err as Error).message;
        controller.enqueue(line(errorBody('vision_failed', message)));
        controller.close();
        await finish();
      }
    },
    async cancel() {
      await finish();
    },
  });
  return c.body(stream, 200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' });
});
