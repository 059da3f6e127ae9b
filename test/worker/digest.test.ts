/**
 * The streaming SHA-256 of uploads (workerd's `crypto.DigestStream`) against the one-shot digest,
 * for lengths around the 64-byte block and any chunking.
 */
import { describe, expect, it } from 'vitest';
import { hex, sha256Hex, streamingSha256 } from '../../src/shared/digest.js';

describe('streaming SHA-256', () => {
  it('should match crypto.subtle for any length and any chunking', async () => {
    for (const n of [0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 1000, 70_001]) {
      const data = Uint8Array.from({ length: n }, (_, i) => (i * 7 + n) & 255);
      const h = streamingSha256();
      for (let o = 0, k = 1; o < n; o += k, k = 1 + ((o * 13) % 97)) await h.update(data.slice(o, o + k));
      expect(await h.hex(), `length ${n}`).toBe(hex(await crypto.subtle.digest('SHA-256', data)));
    }
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
