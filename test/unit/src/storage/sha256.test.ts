import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { requestFingerprint } from '../../../../src/api/admission.js';
import { Sha256, sha256HexOf } from '../../../../src/storage/sha256.js';

describe('incremental SHA-256', () => {
  it('should match node:crypto for any length and any chunking', () => {
    for (const n of [0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 1000, 70_001]) {
      const data = Uint8Array.from({ length: n }, (_, i) => (i * 7 + n) & 255);
      const h = new Sha256();
      for (let o = 0, k = 1; o < n; o += k, k = 1 + ((o * 13) % 97)) h.update(data.subarray(o, o + k));
      expect(h.hex(), `length ${n}`).toBe(createHash('sha256').update(data).digest('hex'));
    }
    expect(sha256HexOf('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('idempotency fingerprint', () => {
  const file = { key: 'uploads/a/source', size: 10, filename: 'a.mp4', content_type: 'video/mp4' };
  const base = { files: { file }, fields: { visual_analytics: 'true', description: 'x' }, digests: { file: 'ab' } };

  it('should ignore field order and storage keys, and see every request difference', () => {
    const fp = requestFingerprint('POST', '/api/analyze-video', 'k1', base);
    const reordered = { ...base, fields: { description: 'x', visual_analytics: 'true' }, files: { file: { ...file, key: 'uploads/b/source' } } };
    expect(requestFingerprint('POST', '/api/analyze-video', 'k1', reordered)).toBe(fp);
    expect(requestFingerprint('POST', '/api/process-video', 'k1', base)).not.toBe(fp);
    expect(requestFingerprint('POST', '/api/analyze-video', 'k2', base)).not.toBe(fp);
    expect(requestFingerprint('POST', '/api/analyze-video', 'k1', { ...base, digests: { file: 'ac' } })).not.toBe(fp);
    expect(requestFingerprint('POST', '/api/analyze-video', 'k1', { ...base, files: { file: { ...file, size: 11 } } })).not.toBe(fp);
    expect(requestFingerprint('POST', '/api/analyze-video', 'k1', { ...base, fields: { visual_analytics: 'false', description: 'x' } })).not.toBe(fp);
  });
});
