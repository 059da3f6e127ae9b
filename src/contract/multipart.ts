/**
 * @module contract/multipart
 * The `multipart/form-data` framing every sender in this project writes (RFC 7578): the client
 * SDK's uploads and the Worker's streamed requests to the media service. Only the delimiters and
 * part headers live here; each sender streams the part bodies its own way.
 */

const encoder = new TextEncoder();

/** A fresh boundary (never appears in a body by chance: 32 random hex digits; `getRandomValues` works in plain-http pages too). */
export const newBoundary = (): string =>
  `----video-api-${[...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('')}`;

export const multipartContentType = (boundary: string): string => `multipart/form-data; boundary=${boundary}`;

/** A name or filename inside a quoted header parameter: `"` percent-encoded, CR/LF dropped. */
const quote = (s: string) => s.replace(/["\\\r\n]/g, (c) => (c === '"' ? '%22' : c === '\\' ? '\\\\' : ' '));

/**
 * The delimiter and headers that open one part; a file part names its filename and type.
 * @example
 * partHead(b, 'visual_analytics') // --b\r\nContent-Disposition: form-data; name="visual_analytics"\r\n\r\n
 */
export function partHead(
  boundary: string,
  name: string,
  file?: { filename: string; contentType: string },
): Uint8Array {
  const disposition = file
    ? `form-data; name="${quote(name)}"; filename="${quote(file.filename)}"\r\nContent-Type: ${file.contentType}`
    : `form-data; name="${quote(name)}"`;
  return encoder.encode(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`);
}

/** What ends each part's body. */
export const PART_END = encoder.encode('\r\n');

/** The closing delimiter of the whole body. */
export const closingDelimiter = (boundary: string): Uint8Array => encoder.encode(`--${boundary}--\r\n`);
