/**
 * @module containers/media/core/input
 * Receiving an input: the request body goes to a temp file (MP4s with the index at the end
 * need a seekable file), or the request names the job's stored source (job-sources.ts); and the client's filename/content-type hints pick ffmpeg's demuxer
 * for headerless formats (raw PCM).
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { WORK_DIR_PREFIX } from './stale-work-dirs.js';
import { checkJobId, useJobSource } from './job-sources.js';
import { MEDIA_HEADERS, PCM_FORMAT } from '../../../src/contract/media-protocol.js';

export interface InputHints {
  filename: string | null;
  contentType: string | null;
}

export function hintsFrom(headers: Headers): InputHints {
  const name = headers.get(MEDIA_HEADERS.sourceFilename);
  let filename: string | null = null;
  try {
    filename = name ? decodeURIComponent(name) : null;
  } catch {
    filename = name;
  }
  return { filename, contentType: headers.get(MEDIA_HEADERS.sourceContentType) };
}

/** Headerless 16-bit PCM cannot be probed; we read it as the protocol's `PCM_FORMAT` unless its content type says otherwise. */
export function rawPcmInputArgs(hints: InputHints): string[] {
  const raw =
    /\.(raw|pcm|s16le)$/i.test(hints.filename ?? '') || /^audio\/(l16|pcm)\b/i.test(hints.contentType ?? '');
  if (!raw) return [];
  const rate = /rate=(\d+)/i.exec(hints.contentType ?? '')?.[1] ?? String(PCM_FORMAT.sampleRateHz);
  const channels = /channels=(\d+)/i.exec(hints.contentType ?? '')?.[1] ?? String(PCM_FORMAT.channels);
  return ['-f', PCM_FORMAT.encoding, '-ar', rate, '-ac', channels];
}

export interface TempInput extends AsyncDisposable {
  path: string;
  bytes: number;
}

/** Streams a request body into a private temp file, removed on dispose. */
export async function receiveToTempFile(
  body: ReadableStream<Uint8Array> | null,
  name = 'input',
): Promise<TempInput> {
  const dir = await mkdtemp(join(tmpdir(), WORK_DIR_PREFIX.input));
  const path = join(dir, name);
  let bytes = 0;
  const cleanup = () => rm(dir, { recursive: true, force: true });
  try {
    const source = body ? Readable.fromWeb(body as never) : Readable.from([]);
    source.on('data', (c: Buffer) => (bytes += c.length));
    await pipeline(source, createWriteStream(path));
  } catch (err) {
    await cleanup();
    throw err;
  }
  return {
    path,
    get bytes() {
      return bytes;
    },
    [Symbol.asyncDispose]: cleanup,
  };
}

/**
 * The request's media: the job's stored source when the request names it (`x-stored-source: 1`;
 * the job and tenant are its headers'), else its body received to a temp file.
 * @throws MediaError 404 `SOURCE_MISSING` when the named source is not stored here.
 */
export async function requestInput(req: Request): Promise<TempInput> {
  if (req.headers.get(MEDIA_HEADERS.storedSource) !== '1') return receiveToTempFile(req.body);
  const jobId = checkJobId(req.headers.get(MEDIA_HEADERS.jobId));
  return useJobSource(jobId, req.headers.get(MEDIA_HEADERS.tenantId));
}
