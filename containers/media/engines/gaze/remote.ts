/**
 * @module containers/media/engines/gaze/remote
 * Adapter for a remote (GPU) gaze-correction service, configured by `GAZE_SERVICE_URL`
 * (+ optional `GAZE_SERVICE_KEY`). Wire format: `POST {url}/v1/eye-contact` with
 * the video as the raw body (`content-type: video/mp4`), answered by `200 video/mp4` with the
 * same frames, frame rate and duration; errors as `{error:{message}}` with a 4xx/5xx status.
 * Both directions stream: the upload from disk, the answer to disk.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import { MediaError } from '../../core/errors.js';

/** A long clip on a busy GPU service; beyond this the render fails rather than hangs. */
export const GAZE_SERVICE_TIMEOUT_MS = 10 * 60_000;

export interface GazeServiceOptions {
  baseUrl: string;
  apiKey?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** The remote gaze service failed (the render answers it as `gaze_provider_error`). */
export class GazeServiceError extends MediaError {
  constructor(
    message: string,
    readonly providerStatus?: number,
    options?: { cause?: unknown },
  ) {
    super('gaze_provider_error', message, 500, options);
    this.name = 'GazeServiceError';
  }
}

/**
 * Sends `videoPath` to the service; resolves to the corrected MP4 written into `workDir`.
 * @example const out = await correctGazeRemote({ baseUrl: 'http://gpu:8080' }, 'in.mp4', '/tmp/job');
 */
export async function correctGazeRemote(
  { baseUrl, apiKey, timeoutMs = GAZE_SERVICE_TIMEOUT_MS, fetch: doFetch = fetch }: GazeServiceOptions,
  videoPath: string,
  workDir: string,
  signal?: AbortSignal,
): Promise<string> {
  const url = `${baseUrl.replace(/\/+$/, '')}/v1/eye-contact`;
  const { size } = await stat(videoPath);
  const headers: Record<string, string> = { 'content-type': 'video/mp4', 'content-length': String(size) };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  const timeout = AbortSignal.timeout(timeoutMs);
  let res: Response;
  try {
    res = await doFetch(url, {
      method: 'POST',
      headers,
      body: Readable.toWeb(createReadStream(videoPath)) as unknown as ReadableStream,
      duplex: 'half',
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    } as RequestInit);
  } catch (err) {
    throw new GazeServiceError(`gaze service unreachable: ${(err as Error).message}`, undefined, {
      cause: err,
    });
  }
  if (!res.ok || !res.body) {
    const text = await res.text().catch(() => '');
    throw new GazeServiceError(`gaze service answered ${res.status}: ${text.slice(0, 300)}`, res.status);
  }
  const out = join(workDir, 'gaze-remote.mp4');
  await pipeline(Readable.fromWeb(res.body as unknown as NodeWebReadableStream), createWriteStream(out));
  return out;
}
