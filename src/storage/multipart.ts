/**
 * @module storage/multipart
 * A streaming `multipart/form-data` parser for Web streams (RFC 7578 / RFC 2046).
 *
 * `request.formData()` buffers the whole body (≈ 2× the file in memory), so uploads go through
 * this instead: parts are yielded one at a time and each part's body is itself a stream of
 * chunks, which the caller must consume (or `skip()`) before asking for the next part.
 * Memory stays bounded by the largest chunk plus the boundary length.
 * Hand-written on purpose: `@mjackson/multipart-parser` 0.10 collects each part whole (`part.bytes`:
 * over twice the part in memory, docs/benchmarks.md), and an upload may be 2 GiB in a 128 MB isolate.
 */

import { BodyTimeoutError, PacedReader, type BodyPace } from './body-pace.js';

const CRLF = new Uint8Array([13, 10]);
const EMPTY = new Uint8Array(0);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Why a body could not be parsed; maps to 400 `invalid_multipart`. */
export class MultipartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MultipartError';
  }
}

/** A text field beyond its size limit: the body is well-formed, the field's value is not (400 `invalid_field`). */
export class FieldTooLongError extends MultipartError {
  constructor(
    readonly field: string,
    readonly maxBytes: number,
  ) {
    super(`field "${field}" is longer than ${maxBytes} bytes`);
    this.name = 'FieldTooLongError';
  }
}

/**
 * A body refused before its end (an unknown field, a file too large, a malformed part) is read on
 * to its end, up to this much, before the answer goes out. Why: a request answered while its body
 * is still arriving and then cancelled is, under `wrangler dev` (`npm start`), often turned into
 * a 500 "Network connection lost" by its proxy instead of the 4xx the client should read
 * (docs/security.md). Beyond this the body is cancelled: a 2 GiB refused upload is not read in full.
 */
export const MAX_DISCARDED_BYTES = 32 * 1024 * 1024;
/** Longest the rest of a refused body is read for, milliseconds (then it is cancelled). */
export const MAX_DISCARD_MS = 10_000;

export interface MultipartLimits {
  /** The pace the body must keep (`storage/body-pace.ts`); default: none. */
  pace?: BodyPace;
  /** Longest header block of one part. Default 16 KiB. */
  maxHeaderBytes?: number;
  /** Most parts in one body. Default 64. */
  maxParts?: number;
}

export interface StreamedPart {
  name: string;
  filename: string | null;
  contentType: string | null;
  /** The part's bytes as they arrive. Read it to the end, or call `skip()`. */
  body: AsyncIterable<Uint8Array>;
  /** Reads and discards the rest of the body. */
  skip(): Promise<void>;
  /** Collects a small text field, failing beyond `maxBytes`. */
  text(maxBytes: number): Promise<string>;
}

/** Extracts the boundary from a Content-Type header, or null when it is not multipart/form-data. */
export function boundaryOf(contentType: string | null): string | null {
  if (!contentType || !/^multipart\/form-data\b/i.test(contentType)) return null;
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2] ?? null;
  return boundary && boundary.length <= 200 ? boundary : null;
}

/** Finds `needle` in `hay` at or after `from`; -1 when absent. */
export function indexOfBytes(hay: Uint8Array, needle: Uint8Array, from = 0): number {
  const first = needle[0];
  const last = hay.length - needle.length;
  for (let i = hay.indexOf(first, from); i !== -1 && i <= last; i = hay.indexOf(first, i + 1)) {
    let j = 1;
    while (j < needle.length && hay[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

const NO_PACE: BodyPace = { idleMs: 0, minBytes: 0, totalMs: 0 };

/** Pulls bytes from a stream with a small look-ahead buffer. */
class ByteReader {
  private buf: Uint8Array = new Uint8Array(0);
  private done = false;
  constructor(private readonly reader: PacedReader) {}

  get buffered(): Uint8Array {
    return this.buf;
  }
  get ended(): boolean {
    return this.done;
  }
  /** A client that goes away mid-upload errors the stream: that is a bad body, not our fault. */
  private async read(): Promise<ReadableStreamReadResult<Uint8Array>> {
    try {
      return await this.reader.read();
    } catch (err) {
      if (err instanceof BodyTimeoutError) throw err;
      throw new MultipartError(`the request body was interrupted: ${(err as Error)?.message ?? err}`);
    }
  }
  /** Reads one more chunk into the buffer; false at end of stream. */
  async fill(): Promise<boolean> {
    if (this.done) return false;
    const { value, done } = await this.read();
    if (done) {
      this.done = true;
      return false;
    }
    this.buf = concat(this.buf, value);
    return true;
  }
  /** The buffered bytes if any, else the next chunk as it came (no copy); null at the end. */
  async nextChunk(): Promise<Uint8Array | null> {
    if (this.buf.length > 0) return this.take(this.buf.length);
    if (this.done) return null;
    const { value, done } = await this.read();
    if (done) {
      this.done = true;
      return null;
    }
    return value;
  }
  take(n: number): Uint8Array {
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return out;
  }
  async ensure(n: number): Promise<boolean> {
    while (this.buf.length < n) if (!(await this.fill())) return false;
    return true;
  }
  cancel(): Promise<void> {
    return this.reader.cancel();
  }
  /**
   * Reads and drops the rest of the body, at most `maxBytes` and `maxMs`; past either, cancels
   * it. A read that fails (a client gone, a body below its pace) leaves nothing to read.
   */
  async discardRest(maxBytes: number, maxMs: number): Promise<void> {
    let dropped = this.buf.length;
    this.buf = EMPTY;
    const timer = setTimeout(() => void this.cancel(), maxMs);
    try {
      while (!this.done && dropped <= maxBytes) {
        const { value, done } = await this.read();
        if (done) this.done = true;
        else dropped += value.byteLength;
      }
    } catch {
      return;
    } finally {
      clearTimeout(timer);
    }
    if (!this.done) await this.cancel();
  }
}

function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0)
      throw new MultipartError(`malformed part header line: ${JSON.stringify(line.slice(0, 80))}`);
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

/** Reads `name="..."` and `filename="..."` (or RFC 5987 `filename*=UTF-8''...`) from Content-Disposition. */
export function parseContentDisposition(value: string): { name: string | null; filename: string | null } {
  const param = (key: string) => {
    const re = new RegExp(`;\\s*${key}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;]*))`, 'i');
    const m = re.exec(value);
    if (!m) return null;
    return m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2].trim();
  };
  let filename = param('filename');
  const extended = param('filename\\*');
  if (extended) {
    const m = /^UTF-8''(.*)$/i.exec(extended);
    if (m) {
      try {
        filename = decodeURIComponent(m[1]);
      } catch {
        /* keep the plain filename */
      }
    }
  }
  return { name: param('name'), filename };
}

/**
 * Yields the parts of a multipart body one at a time.
 * @example
 * for await (const part of parseMultipart(request.body, boundary)) {
 *   if (part.name === 'file') await store(part.body); else fields[part.name] = await part.text(65536);
 * }
 */
export async function* parseMultipart(
  stream: ReadableStream<Uint8Array>,
  boundary: string,
  { maxHeaderBytes = 16 * 1024, maxParts = 64, pace = NO_PACE }: MultipartLimits = {},
): AsyncGenerator<StreamedPart> {
  const delimiter = encoder.encode(`\r\n--${boundary}`);
  const input = new ByteReader(new PacedReader(stream.getReader(), pace));
  let finished = false;
  try {
    // The first delimiter may sit at the very start, without the CRLF before it.
    await input.ensure(delimiter.length);
    let buf = concat(CRLF, input.take(input.buffered.length));
    let at = indexOfBytes(buf, delimiter);
    while (at === -1) {
      // Drop the preamble but keep a tail that might begin the delimiter.
      buf = buf.subarray(Math.max(0, buf.length - delimiter.length + 1));
      if (!(await input.fill())) throw new MultipartError('no multipart boundary found in the body');
      buf = concat(buf, input.take(input.buffered.length));
      at = indexOfBytes(buf, delimiter);
    }
    let pending = buf.subarray(at + delimiter.length);

    for (let parts = 0; ; parts++) {
      // After a delimiter: "--" ends the body, CRLF starts a part.
      while (pending.length < 2) {
        if (!(await input.fill())) throw new MultipartError('body ended inside a boundary');
        pending = concat(pending, input.take(input.buffered.length));
      }
      if (pending[0] === 45 && pending[1] === 45) {
        finished = true;
        return;
      }
      if (parts >= maxParts) throw new MultipartError(`more than ${maxParts} parts`);
      // Transport padding (spaces/tabs) before the CRLF is allowed by RFC 2046.
      let i = 0;
      while (pending[i] === 32 || pending[i] === 9) i++;
      if (pending[i] !== 13 || pending[i + 1] !== 10) throw new MultipartError('malformed boundary line');
      pending = pending.subarray(i + 2);

      let headerEnd = indexOfBytes(pending, encoder.encode('\r\n\r\n'));
      while (headerEnd === -1) {
        if (pending.length > maxHeaderBytes) throw new MultipartError('part headers too large');
        if (!(await input.fill())) throw new MultipartError('body ended inside part headers');
        pending = concat(pending, input.take(input.buffered.length));
        headerEnd = indexOfBytes(pending, encoder.encode('\r\n\r\n'));
      }
      if (headerEnd > maxHeaderBytes) throw new MultipartError('part headers too large');
      const headers = parseHeaders(decoder.decode(pending.subarray(0, headerEnd)));
      pending = pending.subarray(headerEnd + 4);
      const disposition = headers.get('content-disposition');
      if (!disposition || !/^form-data\b/i.test(disposition))
        throw new MultipartError('part without Content-Disposition: form-data');
      const { name, filename } = parseContentDisposition(disposition);
      if (name === null) throw new MultipartError('part without a name');

      let bodyDone = false;
      let consumed = false;
      const body = async function* (): AsyncGenerator<Uint8Array> {
        if (consumed) throw new Error('part body already read');
        consumed = true;
        // Chunks are yielded as views, never copied: only a tail shorter than the delimiter is
        // carried over, and a delimiter split across two chunks is found in a small window.
        let carry = pending;
        pending = EMPTY;
        for (;;) {
          const end = indexOfBytes(carry, delimiter);
          if (end !== -1) {
            if (end > 0) yield carry.subarray(0, end);
            pending = carry.subarray(end + delimiter.length);
            bodyDone = true;
            return;
          }
          const keep = Math.min(carry.length, delimiter.length - 1);
          if (carry.length > keep) yield carry.subarray(0, carry.length - keep);
          const tail = carry.subarray(carry.length - keep);
          const next = await input.nextChunk();
          if (next === null) throw new MultipartError(`body ended inside part "${name}"`);
          if (next.length < delimiter.length) {
            // Tiny chunk: a delimiter may span several of them; joining is cheap here.
            carry = concat(tail, next);
            continue;
          }
          const window = concat(tail, next.subarray(0, delimiter.length - 1));
          const split = indexOfBytes(window, delimiter);
          if (split !== -1 && split < tail.length) {
            if (split > 0) yield tail.subarray(0, split);
            pending = next.subarray(split + delimiter.length - tail.length);
            bodyDone = true;
            return;
          }
          if (tail.length > 0) yield tail;
          carry = next;
        }
      };
      const iterable = body();
      const part: StreamedPart = {
        name,
        filename,
        contentType: headers.get('content-type') ?? null,
        body: iterable,
        skip: async () => {
          if (bodyDone) return;
          if (!consumed) for await (const _ of iterable);
          else throw new Error('part body partially read');
        },
        text: async (maxBytes) => {
          const chunks: Uint8Array[] = [];
          let size = 0;
          for await (const chunk of iterable) {
            size += chunk.length;
            if (size > maxBytes) throw new FieldTooLongError(name, maxBytes);
            chunks.push(chunk.slice());
          }
          return decoder.decode(chunks.reduce(concat, new Uint8Array(0)));
        },
      };
      yield part;
      if (!bodyDone) await part.skip();
    }
  } finally {
    if (!finished) await input.discardRest(MAX_DISCARDED_BYTES, MAX_DISCARD_MS);
  }
}
