/**
 * @module containers/media/engines/render/multipart
 * Streams a `multipart/form-data` body to temp files with busboy: file parts go straight to
 * disk (memory stays flat whatever the upload size), small text parts are kept as strings.
 */
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import { badInput } from './errors.js';

/** Text fields above this are refused: they are JSON options or captions, not media. */
export const MAX_TEXT_FIELD_BYTES = 1_000_000;

export interface ReceivedForm {
  /** Path on disk per file part name (first part of a name wins). */
  files: Record<string, { path: string; bytes: number; filename: string | null; contentType: string | null }>;
  /** Text value per field name (parts sent without a filename). */
  fields: Record<string, string>;
}

export interface ReceiveFormOptions {
  /** Part names accepted as files; others are drained and ignored. */
  fileParts: readonly string[];
  /** Called with each text field as it arrives (before the parts after it). */
  onField?: (name: string, value: string) => void;
}

/**
 * Writes the file parts of `body` under `dir` (one file per part name).
 * @example const form = await receiveForm(req.raw, tmp, { fileParts: ['source', 'speech'] });
 */
export async function receiveForm(
  request: Request,
  dir: string,
  { fileParts, onField }: ReceiveFormOptions,
): Promise<ReceivedForm> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!contentType.toLowerCase().startsWith('multipart/form-data')) {
    throw new (await import('./errors.js')).RenderError(
      'unsupported_media_type',
      'expected multipart/form-data',
      415,
    );
  }
  if (!request.body) throw badInput('options_invalid', 'request body is empty');
  const form: ReceivedForm = { files: {}, fields: {} };
  const writes: Promise<void>[] = [];
  const parser = busboy({
    headers: { 'content-type': contentType },
    limits: { fieldSize: MAX_TEXT_FIELD_BYTES },
  });

  const parsed = new Promise<void>((resolve, reject) => {
    parser.on('file', (name, stream, info) => {
      if (!fileParts.includes(name) || form.files[name]) {
        stream.resume();
        return;
      }
      const path = join(dir, `part-${name}`);
      const entry = { path, bytes: 0, filename: info.filename ?? null, contentType: info.mimeType ?? null };
      form.files[name] = entry;
      stream.on('data', (c: Buffer) => (entry.bytes += c.length));
      writes.push(pipeline(stream, createWriteStream(path)));
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) {
        reject(badInput('options_invalid', `${name}: text field exceeds ${MAX_TEXT_FIELD_BYTES} bytes`));
        return;
      }
      // A client may send a media part without a filename; busboy then reports it as a field.
      if (form.fields[name] !== undefined) return;
      form.fields[name] = value;
      onField?.(name, value);
    });
    parser.on('error', (err: Error) =>
      reject(badInput('multipart_invalid', `multipart body: ${err.message}`, err)),
    );
    parser.on('close', resolve);
  });
  const source = Readable.fromWeb(request.body as unknown as NodeWebReadableStream<Uint8Array>);
  await Promise.all([
    pipeline(source, parser).catch((err) => {
      throw badInput('multipart_invalid', `multipart body: ${(err as Error).message}`, err);
    }),
    parsed,
  ]);
  await Promise.all(writes);
  return form;
}
