import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { mediaBytes } from './helpers.js';

// The test Worker's default export, via the loopback `exports` (typed here rather than by a
// global `Cloudflare.GlobalProps`, which would clash with the main Worker's generated types).
const worker = (exports as unknown as { default: Fetcher }).default;

describe('test worker POST /analyze', () => {
  it('should decode and segment an upload end to end', async () => {
    const body = await mediaBytes('containers/jfk.mp3');
    const response = await worker.fetch(new Request('http://worker/analyze', { method: 'POST', body }));
    expect(response.status).toBe(200);
    const result = await response.json<{ durationSec: number; hasAudio: boolean; segments: unknown[] }>();
    expect(result.hasAudio).toBe(true);
    expect(result.durationSec).toBeCloseTo(11, 0);
    expect(result.segments.length).toBeGreaterThanOrEqual(3);
  });

  it('should answer 422 for bytes that are not media', async () => {
    const response = await worker.fetch(
      new Request('http://worker/analyze', { method: 'POST', body: 'hello' }),
    );
    expect(response.status).toBe(422);
  });
});
