import { describe, expect, it } from 'vitest';
import { requestFingerprint } from '../../../../src/api/admission.js';

describe('idempotency fingerprint', () => {
  const file = { key: 'uploads/a/source', size: 10, filename: 'a.mp4', content_type: 'video/mp4' };
  const base = {
    files: { file },
    fields: { visual_analytics: 'true', description: 'x' },
    digests: { file: 'ab' },
  };

  it('should ignore field order and storage keys, and see every request difference', async () => {
    const fp = await requestFingerprint('POST', '/api/analyze-video', 'k1', base);
    const reordered = {
      ...base,
      fields: { description: 'x', visual_analytics: 'true' },
      files: { file: { ...file, key: 'uploads/b/source' } },
    };
    expect(await requestFingerprint('POST', '/api/analyze-video', 'k1', reordered)).toBe(fp);
    expect(await requestFingerprint('POST', '/api/process-video', 'k1', base)).not.toBe(fp);
    expect(await requestFingerprint('POST', '/api/analyze-video', 'k2', base)).not.toBe(fp);
    expect(
      await requestFingerprint('POST', '/api/analyze-video', 'k1', { ...base, digests: { file: 'ac' } }),
    ).not.toBe(fp);
    expect(
      await requestFingerprint('POST', '/api/analyze-video', 'k1', {
        ...base,
        files: { file: { ...file, size: 11 } },
      }),
    ).not.toBe(fp);
    expect(
      await requestFingerprint('POST', '/api/analyze-video', 'k1', {
        ...base,
        fields: { visual_analytics: 'false', description: 'x' },
      }),
    ).not.toBe(fp);
  });
});
