/**
 * @module containers/media/engines/mouth/signature
 * Pure: a tiny gray thumbnail per frame, to tell which source frame a decoded output frame is.
 * The render decodes the source looped (`-stream_loop`), and the fps filter may drop or repeat
 * a frame at each restart, so "output frame i = source frame i mod n" drifts; the editor
 * follows the expected frame and corrects it by the nearest thumbnail.
 */

export const SIGNATURE_SIDE = 16;

/** Mean gray of a SIGNATURE_SIDE² grid of cells (4×4 samples per cell). */
export function frameSignature(data: Uint8Array, width: number, height: number, channels: 3 | 4): Uint8Array {
  const S = SIGNATURE_SIDE,
    out = new Uint8Array(S * S);
  for (let cy = 0; cy < S; cy++)
    for (let cx = 0; cx < S; cx++) {
      let s = 0;
      for (let j = 0; j < 4; j++)
        for (let i = 0; i < 4; i++) {
          const x = Math.min(width - 1, Math.floor(((cx + (i + 0.5) / 4) * width) / S));
          const y = Math.min(height - 1, Math.floor(((cy + (j + 0.5) / 4) * height) / S));
          const k = (y * width + x) * channels;
          s += data[k] * 0.299 + data[k + 1] * 0.587 + data[k + 2] * 0.114;
        }
      out[cy * S + cx] = Math.round(s / 16);
    }
  return out;
}

/** Sum of absolute differences of two signatures. */
export function signatureDistance(a: Uint8Array, b: Uint8Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += Math.abs(a[i] - b[i]);
  return d;
}

/**
 * The source frame (0..n−1) that `sig` shows, searched around `expected` (±`radius`, wrapping)
 * and at the start of the clip (a loop restart).
 */
export function matchFrame(sig: Uint8Array, signatures: Uint8Array[], expected: number, radius = 2): number {
  const n = signatures.length;
  const candidates = new Set<number>();
  for (let d = -radius; d <= radius; d++) candidates.add((((expected + d) % n) + n) % n);
  for (let d = 0; d <= radius; d++) candidates.add(Math.min(n - 1, d));
  let best = -1,
    bestD = Infinity;
  for (const c of candidates) {
    // Ties go to the expected frame (static shots have near-identical neighbours).
    const dist = signatureDistance(sig, signatures[c]) + (c === ((expected % n) + n) % n ? -0.5 : 0);
    if (dist < bestD) ((bestD = dist), (best = c));
  }
  return best;
}
