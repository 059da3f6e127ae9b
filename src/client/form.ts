/**
 * @module client/form
 * Builds `multipart/form-data` bodies by hand so the total size is known up front and the
 * upload can be counted as it streams. Files come as a path (Node), a Blob/File or bytes;
 * a path is opened lazily with `fs.openAsBlob`, so large files are never read into memory.
 */

import {
  closingDelimiter,
  multipartContentType,
  newBoundary,
  PART_END,
  partHead,
} from '../contract/multipart.js';

/** A file argument: a filesystem path (Node only), a Blob/File, or raw bytes. */
export type FileInput = string | Blob | Uint8Array | ArrayBuffer;

/** Upload progress: bytes handed to the network so far, of `total`. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface NamedFile {
  blob: Blob;
  filename: string;
}

const CONTENT_TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  avi: 'video/x-msvideo',
  mpeg: 'video/mpeg',
  mpg: 'video/mpeg',
  ts: 'video/mp2t',
  '3gp': 'video/3gpp',
  ogv: 'video/ogg',
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  opus: 'audio/ogg',
  flac: 'audio/flac',
};

/** A content type from the file name's extension; `application/octet-stream` if unknown. */
export function contentTypeOf(filename: string): string {
  return CONTENT_TYPES[filename.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}

/**
 * Turns any `FileInput` into a Blob with a name.
 * @example
 * const { blob, filename } = await toNamedFile('clip.mp4', 'video.mp4');
 */
export async function toNamedFile(input: FileInput, fallbackName: string): Promise<NamedFile> {
  if (typeof input === 'string') {
    const fs = await import('node:fs');
    if (typeof fs.openAsBlob !== 'function')
      throw new Error('file paths need Node 20 or newer; pass a Blob or Uint8Array instead');
    const filename = input.split(/[\\/]/).pop() || fallbackName;
    const blob = await fs.openAsBlob(input, { type: contentTypeOf(filename) });
    return { blob, filename };
  }
  if (input instanceof Blob) {
    const name = (input as Blob & { name?: string }).name || fallbackName;
    return { blob: input.type ? input : new Blob([input], { type: contentTypeOf(name) }), filename: name };
  }
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  return {
    blob: new Blob([bytes as Uint8Array<ArrayBuffer>], { type: contentTypeOf(fallbackName) }),
    filename: fallbackName,
  };
}

export interface MultipartBody {
  contentType: string;
  /** Exact byte length of the body. */
  length: number;
  parts: Blob[];
}

const encoder = new TextEncoder();

/**
 * Lays out a multipart body: text fields first, then files (servers can validate fields before the large part).
 * @example
 * const body = buildMultipart({ visual_analytics: 'true' }, { file: await toNamedFile(bytes, 'a.mp4') });
 */
export function buildMultipart(
  fields: Record<string, string>,
  files: Record<string, NamedFile>,
): MultipartBody {
  const boundary = newBoundary();
  const parts: Blob[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(new Blob([partHead(boundary, name), encoder.encode(value), PART_END]));
  for (const [name, file] of Object.entries(files)) {
    const head = partHead(boundary, name, {
      filename: file.filename,
      contentType: file.blob.type || contentTypeOf(file.filename),
    });
    parts.push(new Blob([head]), file.blob, new Blob([PART_END]));
  }
  parts.push(new Blob([closingDelimiter(boundary)]));
  return {
    contentType: multipartContentType(boundary),
    length: parts.reduce((n, p) => n + p.size, 0),
    parts,
  };
}

/** Streams the parts, reporting bytes as the consumer (fetch) pulls them. */
export function countingStream(
  body: MultipartBody,
  onProgress: (p: UploadProgress) => void,
): ReadableStream<Uint8Array> {
  let index = 0;
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  let loaded = 0;
  return new ReadableStream<Uint8Array>({
    start() {
      onProgress({ loaded: 0, total: body.length });
    },
    async pull(controller) {
      for (;;) {
        if (!reader) {
          if (index >= body.parts.length) {
            controller.close();
            return;
          }
          reader = (body.parts[index++].stream() as ReadableStream<Uint8Array>).getReader();
        }
        const { value, done } = await reader.read();
        if (done) {
          reader = null;
          continue;
        }
        loaded += value.byteLength;
        controller.enqueue(value);
        onProgress({ loaded, total: body.length });
        return;
      }
    },
    async cancel(reason) {
      await reader?.cancel(reason);
    },
  });
}

/** True where `fetch` can send a streamed request body (Node's undici; browsers mostly cannot over HTTP/1.1). */
export const canStreamUploads = () => typeof process !== 'undefined' && !!process.versions?.node;
