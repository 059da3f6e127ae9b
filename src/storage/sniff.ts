/**
 * @module storage/sniff
 * A cheap upload-time check: bytes that are plainly text (a .txt renamed .mp4, HTML, JSON) are
 * refused with 415 before a job exists. Anything binary goes on to the job, where ffprobe decides.
 */

/** True when the first bytes are printable UTF-8/ASCII text with no binary control bytes. */
export function looksLikeText(head: Uint8Array): boolean {
  if (head.length < 16) return false;
  let controls = 0;
  for (const b of head) {
    if (b === 0) return false;
    if (b < 9 || (b > 13 && b < 32) || b === 127) controls++;
  }
  if (controls > 0) return false;
  try {
    new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(head.subarray(0, Math.max(0, head.length - 4)));
    return true;
  } catch {
    return false;
  }
}
