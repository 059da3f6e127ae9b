/**
 * @module shared/digest
 * SHA-256 in hex, from the runtime's own implementation: `crypto.subtle` for a string, workerd's
 * `crypto.DigestStream` for bytes that arrive as a stream (an upload is never buffered whole).
 */

const encoder = new TextEncoder();

export const hex = (bytes: ArrayBuffer | Uint8Array): string =>
  [...(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes))]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('');

/** SHA-256 of `text` (UTF-8), in hex. */
export async function sha256Hex(text: string): Promise<string> {
  return hex(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

/**
 * A SHA-256 over chunks written one by one.
 * @example
 * const h = streamingSha256();
 * for await (const chunk of body) await h.update(chunk);
 * await h.hex(); // 64 hex digits
 */
export function streamingSha256(): { update(chunk: Uint8Array): Promise<void>; hex(): Promise<string> } {
  const stream = new crypto.DigestStream('SHA-256');
  const writer = stream.getWriter();
  return {
    update: (chunk) => writer.write(chunk),
    hex: async () => {
      await writer.close();
      return hex(await stream.digest);
    },
  };
}
