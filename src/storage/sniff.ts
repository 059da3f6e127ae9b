/**
 * @module storage/sniff
 * A cheap upload-time check: bytes that are plainly text (a .txt renamed .mp4, HTML, JSON, in
 * UTF-8 or UTF-16) are refused with 415 before a job exists. Anything binary goes on to the job,
 * where ffprobe decides.
 */

/** No media format fits in fewer bytes than this, so a shorter printable file is text (`{"a":1}`). */
const MIN_TEXT_BYTES = 2;

/**
 * True when the first bytes are printable text: UTF-8/ASCII with no binary control bytes, or
 * UTF-16 (with a byte-order mark, or ASCII-range text whose every other byte is zero).
 * @example looksLikeText(new TextEncoder().encode('{"a":1}')) // → true
 */
export function looksLikeText(head: Uint8Array): boolean {
  if (head.length < MIN_TEXT_BYTES) return false;
  return looksLikeUtf8(head) || looksLikeUtf16(head);
}

const isControl = (code: number) => code < 9 || (code > 13 && code < 32) || code === 127;

function looksLikeUtf8(head: Uint8Array): boolean {
  for (const b of head) if (b === 0 || isControl(b)) return false;
  try {
    // The head may end inside a multi-byte character: leave its last bytes out.
    new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(
      head.subarray(0, Math.max(1, head.length - 4)),
    );
    return true;
  } catch {
    return false;
  }
}

function looksLikeUtf16(head: Uint8Array): boolean {
  const bom =
    head[0] === 0xff && head[1] === 0xfe
      ? 'utf-16le'
      : head[0] === 0xfe && head[1] === 0xff
        ? 'utf-16be'
        : null;
  // Without a mark: ASCII-range text, zero in every high byte (media headers never look like this for 16 bytes).
  const bare = bom === null && head.length >= 16 ? bareUtf16(head) : null;
  const encoding = bom ?? bare;
  if (!encoding) return false;
  const body = head.subarray(
    bom ? 2 : 0,
    (bom ? 2 : 0) + Math.floor((head.length - (bom ? 2 : 0)) / 2) * 2 - 2,
  );
  if (body.length < 2) return bom !== null;
  try {
    const text = new TextDecoder(encoding, { fatal: true, ignoreBOM: false }).decode(body);
    for (const ch of text) if (ch.charCodeAt(0) === 0 || isControl(ch.charCodeAt(0))) return false;
    return true;
  } catch {
    return false;
  }
}

function bareUtf16(head: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const n = Math.floor(head.length / 2) * 2;
  let le = true;
  let be = true;
  for (let i = 0; i < n; i += 2) {
    if (head[i + 1] !== 0 || head[i] === 0) le = false;
    if (head[i] !== 0 || head[i + 1] === 0) be = false;
  }
  return le ? 'utf-16le' : be ? 'utf-16be' : null;
}
