/**
 * The render's output goes into R2 in one native put when the container declared its length:
 * a body that ends early, errors, or runs long must leave no object behind (nothing half-written),
 * and a body of the declared length is stored whole.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { declaredLength, storeResponseBody } from '../../src/storage/r2-upload.js';

/**
 * A response whose body sends `sent` bytes, then ends (or fails), with a Content-Length of
 * `declared`: a fixed-length body, as a fetch response with Content-Length has in workerd.
 */
function response(sent: number, declared: number | null, fail = false): Response {
  const pipe = declared === null ? new IdentityTransformStream() : new FixedLengthStream(declared);
  const writer = pipe.writable.getWriter();
  void (async () => {
    for (let left = sent; left > 0; left -= 64 * 1024)
      await writer.write(new Uint8Array(Math.min(left, 64 * 1024)).fill(7));
    if (fail) await writer.abort(new Error('connection reset'));
    else await writer.close();
  })().catch(() => {});
  return new Response(
    pipe.readable,
    declared === null ? {} : { headers: { 'content-length': String(declared) } },
  );
}

describe('storeResponseBody', () => {
  it('should store a body of its declared length whole, with its type', async () => {
    await storeResponseBody(env.MEDIA, 'outputs/whole.mp4', response(300_000, 300_000), 'video/mp4');
    const obj = await env.MEDIA.get('outputs/whole.mp4');
    expect(obj?.size).toBe(300_000);
    expect(obj?.httpMetadata?.contentType).toBe('video/mp4');
  });

  it('should keep nothing when the body ends before its declared length', async () => {
    await expect(
      storeResponseBody(env.MEDIA, 'outputs/short.mp4', response(100_000, 300_000), 'video/mp4'),
    ).rejects.toThrow();
    expect(await env.MEDIA.head('outputs/short.mp4')).toBeNull();
  });

  it('should keep nothing when the body fails part way', async () => {
    await expect(
      storeResponseBody(env.MEDIA, 'outputs/reset.mp4', response(100_000, 300_000, true), 'video/mp4'),
    ).rejects.toThrow();
    expect(await env.MEDIA.head('outputs/reset.mp4')).toBeNull();
  });

  it('should store in parts when no length is declared', async () => {
    await storeResponseBody(env.MEDIA, 'outputs/parts.mp4', response(200_000, null), 'video/mp4');
    expect((await env.MEDIA.head('outputs/parts.mp4'))?.size).toBe(200_000);
  });
});

describe('declaredLength', () => {
  it('should read plain decimal lengths only', () => {
    expect(declaredLength('16547622')).toBe(16547622);
    expect(declaredLength(' 0 ')).toBe(0);
    for (const bad of [null, '', '-1', '1e6', '0x10', '12 34', '99999999999999999'])
      expect(declaredLength(bad)).toBeNull();
  });
});
