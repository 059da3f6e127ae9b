/**
 * @module storage/r2-upload
 * Writes an async stream of bytes into R2 as it arrives, with R2's multipart-upload API (memory
 * is one part buffer: R2 wants equal-sized parts except the last, never the file), or, for a
 * response body of declared length, with one native put.
 */
import { ApiError } from '../contract/errors.js';

/** R2 parts must be ≥ 5 MiB (except the last) and all the same size. */
export const UPLOAD_PART_BYTES = 8 * 1024 * 1024;

export interface StreamToR2Options {
  /** Bytes beyond this fail with 413 `payload_too_large` and nothing is kept. */
  maxBytes?: number;
  contentType?: string | null;
  customMetadata?: Record<string, string>;
  partBytes?: number;
}

export interface StoredObject {
  key: string;
  size: number;
  /** The first bytes of the object, for sniffing its type. */
  head: Uint8Array;
}

const HEAD_BYTES = 512;

/**
 * Streams `chunks` into `bucket/key`. On any failure the multipart upload is aborted, so no
 * partial object and no orphaned upload remain.
 */
export async function streamToR2(
  bucket: R2Bucket,
  key: string,
  chunks: AsyncIterable<Uint8Array>,
  {
    maxBytes = Number.POSITIVE_INFINITY,
    contentType,
    customMetadata,
    partBytes = UPLOAD_PART_BYTES,
  }: StreamToR2Options = {},
): Promise<StoredObject> {
  const httpMetadata = contentType ? { contentType } : undefined;
  const part = new Uint8Array(partBytes);
  let filled = 0;
  let size = 0;
  let head: Uint8Array = new Uint8Array(0);
  let upload: R2MultipartUpload | null = null;
  const uploaded: R2UploadedPart[] = [];

  const flush = async () => {
    upload ??= await bucket.createMultipartUpload(key, { httpMetadata, customMetadata });
    // The part is fully sent once uploadPart resolves, so the one buffer is reused.
    uploaded.push(await upload.uploadPart(uploaded.length + 1, part.subarray(0, filled)));
    filled = 0;
  };

  try {
    for await (const chunk of chunks) {
      size += chunk.length;
      if (size > maxBytes)
        throw new ApiError('payload_too_large', `file is larger than the limit of ${maxBytes} bytes`, {
          limit_bytes: maxBytes,
        });
      if (head.length < HEAD_BYTES) head = concatHead(head, chunk);
      let offset = 0;
      while (offset < chunk.length) {
        const n = Math.min(partBytes - filled, chunk.length - offset);
        part.set(chunk.subarray(offset, offset + n), filled);
        filled += n;
        offset += n;
        if (filled === partBytes) await flush();
      }
    }
    if (upload === null) {
      await bucket.put(key, part.subarray(0, filled), { httpMetadata, customMetadata });
    } else {
      if (filled > 0) await flush();
      await (upload as R2MultipartUpload).complete(uploaded);
    }
    return { key, size, head };
  } catch (err) {
    if (upload !== null) await (upload as R2MultipartUpload).abort().catch(() => {});
    throw err;
  }
}

function concatHead(head: Uint8Array, chunk: Uint8Array): Uint8Array {
  const take = chunk.subarray(0, HEAD_BYTES - head.length);
  const out = new Uint8Array(head.length + take.length);
  out.set(head);
  out.set(take, head.length);
  return out;
}

/** Adapts a Web ReadableStream to an async iterable (workerd streams are async-iterable, types lag). */
export async function* iterate(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * Largest body stored with one `put`. R2 takes up to 5 GiB in one request; past this the body
 * goes in parts (`streamToR2`).
 */
export const SINGLE_PUT_MAX_BYTES = 4 * 2 ** 30;

/**
 * Stores a response body whose length the sender declared (Content-Length) with one native `put`:
 * no JavaScript per chunk and no multipart round trips. A body of another length fails the put and
 * nothing is stored. Without a length, or above SINGLE_PUT_MAX_BYTES, it goes in parts.
 */
export async function storeResponseBody(
  bucket: R2Bucket,
  key: string,
  res: Response,
  contentType: string,
): Promise<void> {
  const length = declaredLength(res.headers.get('content-length'));
  if (length !== null && length <= SINGLE_PUT_MAX_BYTES) {
    await bucket.put(key, res.body!, { httpMetadata: { contentType } });
    return;
  }
  await streamToR2(bucket, key, iterate(res.body!), { contentType });
}

/** Pure: a Content-Length value as a byte count, or null when absent or not a plain decimal. */
export function declaredLength(header: string | null): number | null {
  if (header === null || !/^\d{1,16}$/.test(header.trim())) return null;
  return Number(header.trim());
}
